package builder

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// View draws the builder form: the authorization fields, then the optional
// API-key section, each field with its live check beside or below it.
func (b *builderScreen) View() string {
	c := b.app.Common
	st := c.Styles
	var out strings.Builder
	out.WriteString(b.keyView())
	if b.inert() {
		return layout.Clip(out.String(), b.wd)
	}
	out.WriteString(b.form.View() + "\n")
	note := func(s string) { out.WriteString(st.Muted.Render(layout.WrapTo(s, max(b.wd, 1))) + "\n") }
	switch {
	case b.making:
		note("Creating and encrypting the key pair…")
	case b.err != nil:
		out.WriteString(layout.ErrorBlock(c, "Error", b.err, b.wd))
	case b.withKey && b.made != "":
		out.WriteString(st.Muted.Render(hangWrap("Key file: "+b.made, b.wd, len("Key file: "))) + "\n")
		note("The builder needs this file and its passphrase to sign trades; it is not a login key (svcwallet key list shows it).")
	case b.withKey:
		note("Label, signer and permissions go together: all three, or close the section.")
	default:
		note("Fee rates are percentages: 0.1 means 0.1%, at most 4 decimals.")
	}
	if d := b.demoBuilder(); d != "" && !b.withKey {
		out.WriteString("\n" + st.Label.Render("The sandbox's builder account (ctrl+r)") + "\n" + b.builder.Mark(c, d) + st.Muted.Render(d) + "\n")
	}
	return layout.Clip(out.String(), b.wd)
}

// mainText is the main account's address, whole when it fits in room, else
// shortened visibly in the middle.
func (b *builderScreen) mainText(room int) string {
	if ansi.StringWidth(b.main) > room && common.IsHexAddress(b.main) {
		return b.app.Common.Styles.Value.Render(tui.ShortAddress(common.HexToAddress(b.main).Hex()))
	}
	return b.app.Common.Styles.Value.Render(layout.OrDash(b.main))
}

// toggleText is the API-key section's switch.
func (b *builderScreen) toggleText(int) string {
	box := "[ ] no API key: authorize only"
	if b.withKey {
		box = "[x] also create an API key for it"
	}
	return b.app.Common.Styles.Value.Render(box)
}

// hangWrap wraps plain text s to width w, the lines after the first
// indented by indent cells, so a long path never runs back to column 0.
func hangWrap(s string, w, indent int) string {
	var out []string
	room := max(w, 1)
	for s != "" {
		line, _, _ := strings.Cut(layout.WrapTo(s, room), "\n")
		if line == "" || !strings.HasPrefix(s, line) {
			out = append(out, s)
			break
		}
		out = append(out, line)
		s = strings.TrimLeft(s[len(line):], " ")
		room = max(w-indent, 1)
	}
	return strings.Join(out, "\n"+layout.Pad("", indent))
}

// permsView lists the six permissions with their numbers and check boxes,
// the highlighted one marked while the row has the focus, wrapped to room.
func (b *builderScreen) permsView(room int) string {
	st := b.app.Common.Styles
	parts := make([]string, len(signer.AllPermissions))
	for i, p := range signer.AllPermissions {
		box := "[ ]"
		if b.chosen.Has(p) {
			box = "[x]"
		}
		text := strconv.Itoa(i+1) + box + p.String()
		// The highlighted one is marked › too: reverse video does not
		// show under TERM=dumb.
		switch {
		case b.form.Focused() == b.perms && i == b.permAt:
			parts[i] = st.Cursor.Render("›") + st.Selected.Render(text)
		case b.chosen.Has(p):
			parts[i] = " " + st.Value.Render(text)
		default:
			parts[i] = " " + st.Muted.Render(text)
		}
	}
	room = max(room, 20)
	var lines []string
	line := ""
	for _, p := range parts {
		switch {
		case line == "":
			line = p
		case ansi.StringWidth(line)+1+ansi.StringWidth(p) <= room:
			line += " " + p
		default:
			lines = append(lines, line)
			line = p
		}
	}
	lines = append(lines, line)
	return strings.Join(lines, "\n")
}

// permsNote is the permissions as they are sent.
func (b *builderScreen) permsNote() kit.Note {
	st := b.app.Common.Styles
	canon := st.Value.Render(b.chosen.String())
	if b.chosen == 0 {
		canon = st.Warning.Render("none chosen")
	}
	return kit.Note{Text: st.Muted.Render("sent as ") + canon}
}

// addressNote checks an address as it is typed (builder.ParseEVMAddress);
// the builder's may not be the account's own.
func (b *builderScreen) addressNote(fd *kit.FormField, isBuilder bool) kit.Note {
	v := strings.TrimSpace(fd.Input.Value())
	if v == "" {
		return kit.Note{}
	}
	a, err := builder.ParseEVMAddress(v, "the")
	switch {
	case err != nil:
		return kit.BadNote(err)
	case isBuilder && strings.EqualFold(a.Hex(), b.main):
		return kit.Note{Text: "this is your own account", Kind: kit.NoteWarn}
	}
	return kit.Note{Text: "valid", Kind: kit.NoteOK}
}

// feeNote checks a fee rate as it is typed and shows the signed integer
// after the "%" the value is in, as a warning above builder.HighFeeRate.
func (b *builderScreen) feeNote(fd *kit.FormField) kit.Note {
	st := b.app.Common.Styles
	v := strings.TrimSpace(fd.Input.Value())
	if v == "" {
		return kit.HintNote("%")
	}
	n, err := builder.ParseFeePercent(v)
	if err != nil {
		return kit.BadNote(err)
	}
	if n > builder.HighFeeRate {
		// The review says it in full (Auth.FeeWarnings).
		return kit.Note{Text: "% → signed " + strconv.FormatUint(uint64(n), 10) + ": above " + signer.FormatFeeRate(builder.HighFeeRate) + "%, check it", Kind: kit.NoteWarn}
	}
	return kit.Note{Text: st.Muted.Render("% → signed ") + st.Value.Render(strconv.FormatUint(uint64(n), 10))}
}

// expiresNote checks the validity as it is typed and shows its end.
func (b *builderScreen) expiresNote() kit.Note {
	st := b.app.Common.Styles
	d, err := builder.ParseValidity(b.expires.Input.Value())
	if err != nil {
		return kit.BadNote(err)
	}
	until := b.app.Common.Now().Add(d).UTC().Format("2006-01-02 15:04 UTC")
	hint := st.Muted.Render(builder.HumanDuration(d)+", until ") + st.Value.Render(until)
	if b.wd >= bldLabelWidth+3+9+2+ansi.StringWidth(hint)+len(" · max 30d") {
		hint += st.Muted.Render(" · max 30d")
	}
	return kit.Note{Text: hint}
}
