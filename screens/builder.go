package screens

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"svcwallet/signer"
	"svcwallet/tui"
)

// builderKeyMadeMsg answers the creation of a key pair for the builder's API key.
type builderKeyMadeMsg struct {
	addr common.Address
	path string
	err  error
}

var builderKeys = struct {
	Next, Prev, Review, NewKey, Toggle, Left, Right key.Binding
}{
	Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
	Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous")),
	Review: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review")),
	NewKey: key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "new key pair")),
	Toggle: key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space", "toggle")),
	Left:   key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→ 1-6", "permission")),
	Right:  key.NewBinding(key.WithKeys("right")),
}

// Builder form field ids, in focus order; bfMain is shown, never focused.
const (
	bfMain = iota
	bfBuilder
	bfFutures
	bfSpot
	bfExpires
	bfToggle // the API-key section: open or closed
	bfLabel
	bfSigner
	bfPass  // passphrase of a new key pair
	bfPass2 // the same again
	bfPerms
	bfCount
)

var builderFieldNames = [bfCount]struct{ label, flag string }{
	bfMain: {"Main account", "--keystore-file / $" + signer.KeyEnvVar}, bfBuilder: {"Builder account", "--builder"},
	bfFutures: {"Max futures fee", "--max-futures-fee"}, bfSpot: {"Max spot fee", "--max-spot-fee"},
	bfExpires: {"Valid for", "--expires"}, bfToggle: {"Builder API key", ""}, bfLabel: {"Key label", "--label"},
	bfSigner: {"Key signer", "--api-key-signer"}, bfPass: {"New passphrase", ""}, bfPass2: {"Repeat it", ""},
	bfPerms: {"Permissions", "--permissions"},
}

// Builder is the builder-authorization form (SPEC.md §4.4): the builder, its
// fee caps and the signature's validity, and optionally an API key for the
// builder (label, signer, permissions). Enter goes to the review.
type Builder struct {
	app     *App
	main    string // the logged-in funding address
	inputs  [bfCount]textinput.Model
	focus   int
	withKey bool               // the API-key section is open
	newKey  bool               // the passphrase fields of a new key pair are open
	making  bool               // a key pair is being created and encrypted
	perms   signer.Permissions // chosen permissions, default Trade
	permAt  int                // highlighted permission, index into signer.AllPermissions
	made    string             // keystore file of the key pair made here
	err     error
	nonces  func() uint32 // signer.NewNonce; tests fix it
	wd, h   int
}

// NewBuilder builds the form for the logged-in account.
func NewBuilder(app *App) *Builder {
	c := app.Common
	s, _ := app.Client().Session()
	b := &Builder{app: app, main: s.FundingAccountAddress, focus: bfBuilder, nonces: signer.NewNonce,
		perms: signer.Permissions(0).With(signer.PermTrade), permAt: len(signer.AllPermissions) - 1}
	b.inputs[bfBuilder] = newInput(c, "builder's funding address, 0x…", false)
	b.inputs[bfFutures] = newInput(c, "e.g. 0.1", false)
	b.inputs[bfSpot] = newInput(c, "e.g. 0.05", false)
	b.inputs[bfExpires] = newInput(c, "7d", false)
	b.inputs[bfExpires].SetValue("7d")
	b.inputs[bfLabel] = newInput(c, "shown in the API key list", false)
	b.inputs[bfSigner] = newInput(c, "paste an address, or ctrl+n for a new key pair", false)
	b.inputs[bfPass] = newInput(c, "encrypts the new key file", true)
	b.inputs[bfPass2] = newInput(c, "type it again", true)
	for i := range b.inputs {
		b.inputs[i].CharLimit = 128
	}
	return b
}

func (b *Builder) Init() tea.Cmd { return b.inputs[b.focus].Focus() }

func (b *Builder) Title() string { return "Builder authorization" }

func (b *Builder) SetSize(w, h int) {
	b.wd, b.h = w, h
	// An input shows its text and, after it, a cell for the cursor: size it
	// to what is left after the focus marker, the label and a space, so its
	// start never scrolls out of sight. Fee fields fit their longest valid
	// value, "429496.7295%".
	inline := max(w-(bldLabelCol+1), 4)
	for id, n := range map[int]int{bfFutures: 12, bfSpot: 12, bfExpires: 8, bfLabel: 32, bfPass: 24, bfPass2: 24} {
		b.inputs[id].SetWidth(min(n, inline))
	}
	addr := inline
	if !b.addrInline() {
		addr = max(w-(bldStackIndent+1), 4)
	}
	b.inputs[bfBuilder].SetWidth(min(42, addr))
	b.inputs[bfSigner].SetWidth(min(48, addr))
}

// The form's columns: the focus marker (2) and the label (16) then a space;
// an address too wide for the rest of the line goes on its own line,
// indented bldStackIndent.
const (
	bldLabelWidth  = 16
	bldLabelCol    = 2 + bldLabelWidth + 1
	bldStackIndent = 4
)

// addrInline: a whole address (42 cells and the cursor's) fits right of the
// label.
func (b *Builder) addrInline() bool { return b.wd >= bldLabelCol+43 }

func (b *Builder) KeyMap() help.KeyMap {
	switch b.focus {
	case bfToggle:
		return keyMap{builderKeys.Toggle, builderKeys.Next, builderKeys.Review}
	case bfPerms:
		return keyMap{builderKeys.Toggle, builderKeys.Left, builderKeys.Next, builderKeys.Review}
	case bfPass, bfPass2:
		return keyMap{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "create key pair")), builderKeys.Next,
			key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "cancel new key"))}
	}
	if b.withKey {
		return keyMap{builderKeys.Review, builderKeys.Next, builderKeys.NewKey}
	}
	return keyMap{builderKeys.Review, builderKeys.Next}
}

// Inputting: text fields take q and ? as text.
func (b *Builder) Inputting() bool { return b.isInput(b.focus) }

func (b *Builder) isInput(id int) bool { return id != bfMain && id != bfToggle && id != bfPerms }

// fields lists the focusable fields shown, in order.
func (b *Builder) fields() []int {
	f := []int{bfBuilder, bfFutures, bfSpot, bfExpires, bfToggle}
	if !b.withKey {
		return f
	}
	f = append(f, bfLabel, bfSigner)
	if b.newKey {
		f = append(f, bfPass, bfPass2)
	}
	return append(f, bfPerms)
}

func (b *Builder) setFocus(id int) tea.Cmd {
	for i := range b.inputs {
		b.inputs[i].Blur()
	}
	b.focus = id
	if b.isInput(id) {
		return b.inputs[id].Focus()
	}
	return nil
}

func (b *Builder) moveFocus(delta int) tea.Cmd {
	return b.setFocus(cycleFocus(b.fields(), b.focus, delta))
}

func (b *Builder) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case builderKeyMadeMsg:
		return b, b.keyMade(msg)
	case tea.KeyPressMsg:
		if b.making {
			return b, nil
		}
		switch {
		case key.Matches(msg, builderKeys.Review):
			if b.focus == bfPass || b.focus == bfPass2 {
				return b, b.makeKey()
			}
			return b, b.review()
		case key.Matches(msg, builderKeys.NewKey):
			return b, b.toggleNewKey()
		case key.Matches(msg, builderKeys.Next):
			return b, b.moveFocus(1)
		case key.Matches(msg, builderKeys.Prev):
			return b, b.moveFocus(-1)
		case b.focus == bfToggle:
			if key.Matches(msg, builderKeys.Toggle, builderKeys.Left, builderKeys.Right) {
				b.withKey, b.newKey, b.err = !b.withKey, false, nil
			}
			return b, nil
		case b.focus == bfPerms:
			b.permKey(msg)
			return b, nil
		}
	}
	if !b.isInput(b.focus) {
		return b, nil
	}
	var cmd tea.Cmd
	b.inputs[b.focus], cmd = b.inputs[b.focus].Update(msg)
	if _, ok := msg.(tea.KeyPressMsg); ok {
		b.err = nil
	}
	return b, cmd
}

// permKey moves the highlight (←/→), toggles it (space) or toggles a
// permission by its bit number (1–6).
func (b *Builder) permKey(k tea.KeyPressMsg) {
	n := len(signer.AllPermissions)
	switch {
	case key.Matches(k, builderKeys.Left):
		b.permAt = (b.permAt + n - 1) % n
	case key.Matches(k, builderKeys.Right):
		b.permAt = (b.permAt + 1) % n
	case key.Matches(k, builderKeys.Toggle):
		b.perms ^= signer.Permissions(0).With(signer.AllPermissions[b.permAt])
	default:
		if d, err := strconv.Atoi(k.String()); err == nil && d >= 1 && d <= n {
			b.permAt = d - 1
			b.perms ^= signer.Permissions(0).With(signer.AllPermissions[d-1])
		}
	}
	b.err = nil
}

// toggleNewKey opens (or closes) the passphrase fields of a new key pair,
// opening the API-key section if needed.
func (b *Builder) toggleNewKey() tea.Cmd {
	b.err = nil
	if b.newKey {
		b.newKey = false
		b.inputs[bfPass].SetValue("")
		b.inputs[bfPass2].SetValue("")
		return b.setFocus(bfSigner)
	}
	b.withKey, b.newKey = true, true
	return b.setFocus(bfPass)
}

// makeKey creates a key pair in the keystore, in a Cmd: scrypt takes a second.
func (b *Builder) makeKey() tea.Cmd {
	p1, p2 := b.inputs[bfPass].Value(), b.inputs[bfPass2].Value()
	switch {
	case b.app.KeystoreDir == "":
		b.err = userError{"No keystore directory to save the key in: set $" + signer.KeystoreEnvVar + ", or paste the address of a key made elsewhere"}
		return nil
	case p1 == "":
		b.err = userError{"Choose a passphrase for the new key file"}
		return b.setFocus(bfPass)
	case p1 != p2:
		b.err = userError{"The passphrases differ: type them again"}
		b.inputs[bfPass].SetValue("")
		b.inputs[bfPass2].SetValue("")
		return b.setFocus(bfPass)
	}
	b.making, b.err = true, nil
	dir := b.app.KeystoreDir
	return func() tea.Msg {
		addr, path, err := signer.NewKeystoreKey(dir, p1)
		return builderKeyMadeMsg{addr: addr, path: path, err: err}
	}
}

func (b *Builder) keyMade(msg builderKeyMadeMsg) tea.Cmd {
	b.making = false
	b.inputs[bfPass].SetValue("")
	b.inputs[bfPass2].SetValue("")
	if msg.err != nil {
		b.err = userError{"The key pair was not created: " + msg.err.Error()}
		return nil
	}
	b.newKey, b.made = false, msg.path
	b.inputs[bfSigner].SetValue(msg.addr.Hex())
	return tea.Batch(b.setFocus(bfPerms), tui.ShowInfo("New key pair "+msg.addr.Hex()+" saved to the keystore"))
}

// input collects what the form holds; a closed API-key section sends none
// of the three fields.
func (b *Builder) input() BuilderInput {
	in := BuilderInput{
		Main: b.main, Builder: b.inputs[bfBuilder].Value(),
		FuturesFee: b.inputs[bfFutures].Value(), SpotFee: b.inputs[bfSpot].Value(), Expires: b.inputs[bfExpires].Value(),
	}
	if b.withKey {
		in.Label, in.KeySigner, in.Permissions = b.inputs[bfLabel].Value(), b.inputs[bfSigner].Value(), b.perms.String()
	}
	return in
}

// review checks the whole form and shows the message to sign.
func (b *Builder) review() tea.Cmd {
	if b.newKey {
		b.err = userError{"Finish the new key pair first (enter in a passphrase field), or press ctrl+n to cancel it"}
		return b.setFocus(bfPass)
	}
	a, err := CheckBuilder(b.input())
	var fe *BuilderFieldError
	switch {
	case errors.Is(err, ErrBuilderKeyFields):
		b.err = userError{"The API key needs all three: label, signer and permissions. Fill in the missing ones, or close the section (space on “Builder API key”) to authorize without an API key"}
		return b.setFocus(b.firstEmptyKeyField())
	case errors.As(err, &fe):
		b.err = fe
		if fe.id != bfMain {
			return b.setFocus(fe.id)
		}
		return nil
	case err != nil:
		b.err = err
		return nil
	}
	b.err = nil
	return tui.Push(NewBuilderReview(b.app, a, b.nonces()))
}

func (b *Builder) firstEmptyKeyField() int {
	switch {
	case strings.TrimSpace(b.inputs[bfLabel].Value()) == "":
		return bfLabel
	case strings.TrimSpace(b.inputs[bfSigner].Value()) == "":
		return bfSigner
	}
	return bfPerms
}

func (b *Builder) View() string {
	c := b.app.Common
	st := c.Styles
	const lw = bldLabelWidth
	var out strings.Builder
	out.WriteString(st.Heading.Render("Authorize a builder to trade for this account") + "\n\n")
	// row draws a field: inline after its label, or (own) on the next line;
	// the hint follows on the same line when it fits, else below, wrapped.
	row := func(id int, value, hint string, own bool) {
		marker := "  "
		if b.focus == id {
			marker = st.Cursor.Render("› ")
		}
		line, indent := marker+field(c, builderFieldNames[id].label, lw, value), bldLabelCol
		if own {
			// The hint rides on the label's line when it fits there.
			label := builderFieldNames[id].label
			head := marker + inksFor(c).label.on(label)
			if hint != "" && 2+len(label)+2+ansi.StringWidth(hint) <= b.wd {
				head, hint = head+"  "+hint, ""
			}
			line = head + "\n" + pad("", bldStackIndent) + value
			indent = bldStackIndent
		}
		if hint != "" {
			last := line[strings.LastIndexByte(line, '\n')+1:]
			if ansi.StringWidth(last)+2+ansi.StringWidth(hint) <= b.wd {
				line += "  " + hint
			} else {
				wrapped := ansi.Wrap(hint, max(b.wd-indent, 10), "")
				line += "\n" + pad("", indent) + strings.ReplaceAll(wrapped, "\n", "\n"+pad("", indent))
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
		out.WriteString(pad("", lw+3) + st.Muted.Render("sent as ") + canon + "\n")
	}
	out.WriteString("\n")
	note := func(s string) { out.WriteString(st.Muted.Render(ansi.Wrap(s, max(b.wd, 1), "")) + "\n") }
	switch {
	case b.making:
		note("Creating and encrypting the key pair…")
	case b.err != nil:
		out.WriteString(errorBlock(c, "Error", b.err, b.wd))
	case b.withKey && b.made != "":
		out.WriteString(st.Muted.Render(hangWrap("Key file: "+b.made, b.wd, len("Key file: "))) + "\n")
		note("The builder needs this file and its passphrase to sign trades.")
	case b.withKey:
		note("Label, signer and permissions go together: all three, or close the section.")
	default:
		note("Fee rates are percentages: 0.1 means 0.1%, at most 4 decimals.")
	}
	return clip(out.String(), b.wd)
}

// mainText is the main account's address, whole when it fits (on its own
// line if own), else shortened visibly in the middle.
func (b *Builder) mainText(own bool) string {
	room := b.wd - bldLabelCol
	if own {
		room = b.wd - bldStackIndent
	}
	if ansi.StringWidth(b.main) > room && common.IsHexAddress(b.main) {
		return shortAddr(common.HexToAddress(b.main))
	}
	return orDash(b.main)
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
	return strings.Join(out, "\n"+pad("", indent))
}

// permsView lists the six permissions with their numbers and check boxes,
// the highlighted one marked while the row has the focus.
func (b *Builder) permsView() string {
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
	return strings.Join(lines, "\n"+pad("", 19))
}

func (b *Builder) addressHint(id int) string {
	st := b.app.Common.Styles
	v := strings.TrimSpace(b.inputs[id].Value())
	if v == "" {
		return ""
	}
	a, err := parseEVM(v, "the")
	switch {
	case err != nil:
		return st.Warning.Render("✗ " + err.Error())
	case id == bfBuilder && strings.EqualFold(a.Hex(), b.main):
		return st.Warning.Render("! this is your own account")
	}
	return st.InfoToast.Render("✓ valid")
}

func (b *Builder) feeHint(id int) string {
	st := b.app.Common.Styles
	v := strings.TrimSpace(b.inputs[id].Value())
	if v == "" {
		return st.Muted.Render("%")
	}
	n, err := parseFeePercent(v)
	if err != nil {
		return st.Warning.Render("% ✗ " + err.Error())
	}
	return st.Muted.Render("% → signed ") + st.Value.Render(strconv.FormatUint(uint64(n), 10))
}

func (b *Builder) expiresHint() string {
	st := b.app.Common.Styles
	d, err := ParseBuilderValidity(b.inputs[bfExpires].Value())
	if err != nil {
		return st.Warning.Render("✗ " + err.Error())
	}
	until := b.app.Common.Now().Add(d).UTC().Format("2006-01-02 15:04 UTC")
	hint := st.Muted.Render(humanDuration(d)+", until ") + st.Value.Render(until)
	if b.wd >= bldLabelCol+9+2+ansi.StringWidth(hint)+len(" · max 30d") {
		hint += st.Muted.Render(" · max 30d")
	}
	return hint
}

// builderExpiry formats an expiration in unix nanoseconds.
func builderExpiry(ns int64) string {
	return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05 UTC")
}
