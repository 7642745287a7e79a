package builder

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"svcwallet/screens/kit"
	"svcwallet/service/builder"
	"svcwallet/signer"
	"svcwallet/tui"
)

// View draws the builder form: the authorization fields, then the optional
// API-key section, each field with its live check beside or below it.
func (b *builderScreen) View() string {
	c := b.app.Common
	st := c.Styles
	const lw = bldLabelWidth
	var out strings.Builder
	// row draws a field: inline after its label, or (own) on the next line;
	// the hint follows on the same line when it fits, else below, wrapped.
	row := func(id int, value, hint string, own bool) {
		marker := "  "
		if b.focus == id {
			marker = st.Cursor.Render("› ")
		}
		line, indent := marker+kit.Field(c, builderFieldLabels[id], lw, value), bldLabelCol
		if own {
			// The hint rides on the label's line when it fits there.
			label := builderFieldLabels[id]
			head := marker + kit.InksFor(c).Label.On(label)
			if hint != "" && 2+len(label)+2+ansi.StringWidth(hint) <= b.wd {
				head, hint = head+"  "+hint, ""
			}
			line = head + "\n" + kit.Pad("", bldStackIndent) + value
			indent = bldStackIndent
		}
		if hint != "" {
			last := line[strings.LastIndexByte(line, '\n')+1:]
			if ansi.StringWidth(last)+2+ansi.StringWidth(hint) <= b.wd {
				line += "  " + hint
			} else {
				wrapped := ansi.Wrap(hint, max(b.wd-indent, 10), "")
				line += "\n" + kit.Pad("", indent) + strings.ReplaceAll(wrapped, "\n", "\n"+kit.Pad("", indent))
			}
		}
		out.WriteString(line + "\n")
	}
	own := !b.addrInline()
	row(bfMain, st.Value.Render(b.mainText(own)), st.Muted.Render("its key signs"), own)
	row(bfBuilder, b.inputs[bfBuilder].View(), b.addressHint(bfBuilder), own)
	row(bfFutures, b.inputs[bfFutures].View(), b.feeHint(bfFutures), false)
	row(bfSpot, b.inputs[bfSpot].View(), b.feeHint(bfSpot), false)
	row(bfExpires, b.inputs[bfExpires].View(), b.expiresHint(), false)
	out.WriteString("\n")
	box := "[ ] no API key: authorize only"
	if b.withKey {
		box = "[x] also create an API key for it"
	}
	row(bfToggle, st.Value.Render(box), st.Muted.Render("space"), false)
	if b.withKey {
		row(bfLabel, b.inputs[bfLabel].View(), "", false)
		row(bfSigner, b.inputs[bfSigner].View(), b.addressHint(bfSigner), own)
		if b.newKey {
			row(bfPass, b.inputs[bfPass].View(), "", false)
			row(bfPass2, b.inputs[bfPass2].View(), st.Muted.Render("enter creates the key pair"), false)
		}
		row(bfPerms, b.permsView(), "", false)
		canon := b.perms.String()
		if canon == "" {
			canon = st.Warning.Render("none chosen")
		} else {
			canon = st.Value.Render(canon)
		}
		out.WriteString(kit.Pad("", lw+3) + st.Muted.Render("sent as ") + canon + "\n")
	}
	out.WriteString("\n")
	note := func(s string) { out.WriteString(st.Muted.Render(ansi.Wrap(s, max(b.wd, 1), "")) + "\n") }
	switch {
	case b.making:
		note("Creating and encrypting the key pair…")
	case b.err != nil:
		out.WriteString(kit.ErrorBlock(c, "Error", b.err, b.wd))
	case b.withKey && b.made != "":
		out.WriteString(st.Muted.Render(hangWrap("Key file: "+b.made, b.wd, len("Key file: "))) + "\n")
		note("The builder needs this file and its passphrase to sign trades.")
	case b.withKey:
		note("Label, signer and permissions go together: all three, or close the section.")
	default:
		note("Fee rates are percentages: 0.1 means 0.1%, at most 4 decimals.")
	}
	return kit.Clip(out.String(), b.wd)
}

// mainText is the main account's address, whole when it fits (on its own
// line if own), else shortened visibly in the middle.
func (b *builderScreen) mainText(own bool) string {
	room := b.wd - bldLabelCol
	if own {
		room = b.wd - bldStackIndent
	}
	if ansi.StringWidth(b.main) > room && common.IsHexAddress(b.main) {
		return tui.ShortAddress(common.HexToAddress(b.main).Hex())
	}
	return kit.OrDash(b.main)
}

// hangWrap wraps plain text s to width w, the lines after the first
// indented by indent cells, so a long path never runs back to column 0.
func hangWrap(s string, w, indent int) string {
	var out []string
	room := max(w, 1)
	for s != "" {
		line, _, _ := strings.Cut(ansi.Wrap(s, room, ""), "\n")
		if line == "" || !strings.HasPrefix(s, line) {
			out = append(out, s)
			break
		}
		out = append(out, line)
		s = strings.TrimLeft(s[len(line):], " ")
		room = max(w-indent, 1)
	}
	return strings.Join(out, "\n"+kit.Pad("", indent))
}

// permsView lists the six permissions with their numbers and check boxes,
// the highlighted one marked while the row has the focus.
func (b *builderScreen) permsView() string {
	st := b.app.Common.Styles
	parts := make([]string, len(signer.AllPermissions))
	for i, p := range signer.AllPermissions {
		box := "[ ]"
		if b.perms.Has(p) {
			box = "[x]"
		}
		text := strconv.Itoa(i+1) + box + p.String()
		switch {
		case b.focus == bfPerms && i == b.permAt:
			parts[i] = st.Selected.Render(text)
		case b.perms.Has(p):
			parts[i] = st.Value.Render(text)
		default:
			parts[i] = st.Muted.Render(text)
		}
	}
	// Wrap to the room right of the label.
	room := max(b.wd-19, 20)
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
	return strings.Join(lines, "\n"+kit.Pad("", 19))
}

func (b *builderScreen) addressHint(id int) string {
	st := b.app.Common.Styles
	v := strings.TrimSpace(b.inputs[id].Value())
	if v == "" {
		return ""
	}
	a, err := builder.ParseEVMAddress(v, "the")
	switch {
	case err != nil:
		return st.Warning.Render("✗ " + err.Error())
	case id == bfBuilder && strings.EqualFold(a.Hex(), b.main):
		return st.Warning.Render("! this is your own account")
	}
	return st.InfoToast.Render("✓ valid")
}

func (b *builderScreen) feeHint(id int) string {
	st := b.app.Common.Styles
	v := strings.TrimSpace(b.inputs[id].Value())
	if v == "" {
		return st.Muted.Render("%")
	}
	n, err := builder.ParseFeePercent(v)
	if err != nil {
		return st.Warning.Render("% ✗ " + err.Error())
	}
	return st.Muted.Render("% → signed ") + st.Value.Render(strconv.FormatUint(uint64(n), 10))
}

func (b *builderScreen) expiresHint() string {
	st := b.app.Common.Styles
	d, err := builder.ParseValidity(b.inputs[bfExpires].Value())
	if err != nil {
		return st.Warning.Render("✗ " + err.Error())
	}
	until := b.app.Common.Now().Add(d).UTC().Format("2006-01-02 15:04 UTC")
	hint := st.Muted.Render(builder.HumanDuration(d)+", until ") + st.Value.Render(until)
	if b.wd >= bldLabelCol+9+2+ansi.StringWidth(hint)+len(" · max 30d") {
		hint += st.Muted.Render(" · max 30d")
	}
	return hint
}

// builderExpiry formats an expiration in unix nanoseconds.
func builderExpiry(ns int64) string {
	return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05 UTC")
}
