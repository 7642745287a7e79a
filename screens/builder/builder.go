// Package builder authorizes a builder account, with or without a builder
// API key: the form, the review of what is signed, and the result.
package builder

import (
	"errors"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/builder"
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

// builderFieldLabels name the form's rows: the inputs builder.Check
// checks by the names its errors use, and the form's own rows.
var builderFieldLabels = func() [bfCount]string {
	labels := [bfCount]string{bfToggle: "Builder API key", bfPass: "New passphrase", bfPass2: "Repeat it"}
	for field, id := range builderInputOf {
		labels[id] = field.Label()
	}
	return labels
}()

// builderInputOf is the form row of each input builder.Check names.
var builderInputOf = map[builder.Field]int{
	builder.FieldMain: bfMain, builder.FieldBuilder: bfBuilder,
	builder.FieldFuturesFee: bfFutures, builder.FieldSpotFee: bfSpot, builder.FieldExpires: bfExpires,
	builder.FieldLabel: bfLabel, builder.FieldKeySigner: bfSigner, builder.FieldPermissions: bfPerms,
}

// builderScreen is the builder-authorization form (SPEC.md §4.4): the builder, its
// fee caps and the signature's validity, and optionally an API key for the
// builder (label, signer, permissions). Enter goes to the review.
type builderScreen struct {
	app     *kit.App
	main    string // the logged-in funding address
	inputs  [bfCount]kit.Input
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

// New builds the builder authorization form for the logged-in account.
func New(app *kit.App) tui.Screen {
	c := app.Common
	s, _ := app.Client().Session()
	b := &builderScreen{app: app, main: s.FundingAccountAddress, focus: bfBuilder, nonces: signer.NewNonce,
		perms: signer.Permissions(0).With(signer.PermTrade), permAt: len(signer.AllPermissions) - 1}
	b.inputs[bfBuilder] = kit.NewInput(c, "builder's funding address, 0x…", false)
	b.inputs[bfFutures] = kit.NewInput(c, "e.g. 0.1", false)
	b.inputs[bfSpot] = kit.NewInput(c, "e.g. 0.05", false)
	b.inputs[bfExpires] = kit.NewInput(c, "7d", false)
	b.inputs[bfExpires].SetValue("7d")
	b.inputs[bfLabel] = kit.NewInput(c, "shown in the API key list", false)
	b.inputs[bfSigner] = kit.NewInput(c, "paste an address, or ctrl+n for a new key pair", false)
	b.inputs[bfPass] = kit.NewPassphrase(c, "encrypts the new key file")
	b.inputs[bfPass2] = kit.NewPassphrase(c, "type it again")
	for i := range b.inputs {
		b.inputs[i].CharLimit = 128
	}
	return b
}

func (b *builderScreen) Init() tea.Cmd { return b.inputs[b.focus].Focus() }

func (b *builderScreen) Title() string { return "Builder authorization" }

func (b *builderScreen) SetSize(w, h int) {
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
func (b *builderScreen) addrInline() bool { return b.wd >= bldLabelCol+43 }

func (b *builderScreen) KeyMap() help.KeyMap { return b.bindings().KeyMap() }

// bindings depend on the focus: the API-key section's switch, the
// permission picker, the new key pair's passphrases, or a text field (where
// other keys are text). ctrl+n acts everywhere but is offered only in text
// fields once the API-key section is open; shift+tab is not in the footer,
// tab is. Nothing acts while a key pair is being made.
func (b *builderScreen) bindings() kit.Bindings {
	if b.making {
		return nil
	}
	next := kit.Binding{Key: builderKeys.Next, On: true, Do: func() tea.Cmd { return b.moveFocus(1) }}
	prev := kit.Binding{Key: builderKeys.Prev, On: true, Do: func() tea.Cmd { return b.moveFocus(-1) }}
	prev.Key.SetHelp("", "")
	review := kit.Binding{Key: builderKeys.Review, On: true, Do: b.review}
	newKey := kit.Binding{Key: builderKeys.NewKey, On: true, Do: b.toggleNewKey}
	if !b.withKey {
		newKey.Key.SetHelp("", "")
	}
	quiet := func(k key.Binding) key.Binding { k.SetHelp("", ""); return k }
	switch b.focus {
	case bfToggle:
		flip := func() tea.Cmd { b.withKey, b.newKey, b.err = !b.withKey, false, nil; return nil }
		return kit.Bindings{{Key: builderKeys.Toggle, On: true, Do: flip}, next, review, prev, newKey,
			{Key: quiet(builderKeys.Left), On: true, Do: flip}, {Key: builderKeys.Right, On: true, Do: flip}}
	case bfPerms:
		n := len(signer.AllPermissions)
		move := func(delta int) func() tea.Cmd {
			return func() tea.Cmd { b.permAt, b.err = (b.permAt+delta+n)%n, nil; return nil }
		}
		bs := kit.Bindings{{Key: builderKeys.Toggle, On: true, Do: func() tea.Cmd { return b.flipPermission(b.permAt) }},
			{Key: builderKeys.Left, On: true, Do: move(-1)}, {Key: builderKeys.Right, On: true, Do: move(1)}, next, review, prev,
			{Key: quiet(newKey.Key), On: true, Do: newKey.Do}}
		for d := range n {
			bs = append(bs, kit.Binding{Key: key.NewBinding(key.WithKeys(strconv.Itoa(d + 1))), On: true, Do: func() tea.Cmd { return b.flipPermission(d) }})
		}
		return bs
	case bfPass, bfPass2:
		create := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "create key pair"))
		newKey.Key.SetHelp("ctrl+n", "cancel new key")
		return kit.Bindings{{Key: create, On: true, Do: b.makeKey}, next, newKey, prev}
	}
	return kit.Bindings{review, next, newKey, prev}
}

// Inputting: text fields take q and ? as text.
func (b *builderScreen) Inputting() bool { return b.isInput(b.focus) }

func (b *builderScreen) isInput(id int) bool { return id != bfMain && id != bfToggle && id != bfPerms }

// fields lists the focusable fields shown, in order.
func (b *builderScreen) fields() []int {
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

func (b *builderScreen) setFocus(id int) tea.Cmd {
	for i := range b.inputs {
		b.inputs[i].Blur()
	}
	b.focus = id
	if b.isInput(id) {
		return b.inputs[id].Focus()
	}
	return nil
}

func (b *builderScreen) moveFocus(delta int) tea.Cmd {
	return b.setFocus(kit.CycleFocus(b.fields(), b.focus, delta))
}

func (b *builderScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case builderKeyMadeMsg:
		return b, b.keyMade(msg)
	case tea.KeyPressMsg:
		if b.making {
			return b, nil
		}
		if cmd, ok := b.bindings().Handle(msg); ok {
			return b, cmd
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

// flipPermission turns the i-th permission on or off and highlights it.
func (b *builderScreen) flipPermission(i int) tea.Cmd {
	b.permAt, b.err = i, nil
	b.perms ^= signer.Permissions(0).With(signer.AllPermissions[i])
	return nil
}

// toggleNewKey opens (or closes) the passphrase fields of a new key pair,
// opening the API-key section if needed.
func (b *builderScreen) toggleNewKey() tea.Cmd {
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
func (b *builderScreen) makeKey() tea.Cmd {
	p1, p2 := b.inputs[bfPass].Value(), b.inputs[bfPass2].Value()
	switch {
	case b.app.KeystoreDir == "":
		b.err = service.UserError{Text: "No keystore directory to save the key in: set $" + signer.KeystoreEnvVar + ", or paste the address of a key made elsewhere"}
		return nil
	case p1 == "":
		b.err = service.UserError{Text: "Choose a passphrase for the new key file"}
		return b.setFocus(bfPass)
	case p1 != p2:
		b.err = service.UserError{Text: "The passphrases differ: type them again"}
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

func (b *builderScreen) keyMade(msg builderKeyMadeMsg) tea.Cmd {
	b.making = false
	b.inputs[bfPass].SetValue("")
	b.inputs[bfPass2].SetValue("")
	if msg.err != nil {
		b.err = service.UserError{Text: "The key pair was not created: " + msg.err.Error(), Cause: msg.err}
		return nil
	}
	b.newKey, b.made = false, msg.path
	b.inputs[bfSigner].SetValue(msg.addr.Hex())
	return tea.Batch(b.setFocus(bfPerms), tui.ShowInfo("New key pair "+msg.addr.Hex()+" saved to the keystore"))
}

// input collects what the form holds; a closed API-key section sends none
// of the three fields.
func (b *builderScreen) input() builder.Input {
	in := builder.Input{
		Main: b.main, Builder: b.inputs[bfBuilder].Value(),
		FuturesFee: b.inputs[bfFutures].Value(), SpotFee: b.inputs[bfSpot].Value(), Expires: b.inputs[bfExpires].Value(),
	}
	if b.withKey {
		in.Label, in.KeySigner, in.Permissions = b.inputs[bfLabel].Value(), b.inputs[bfSigner].Value(), b.perms.String()
	}
	return in
}

// review checks the whole form and shows the message to sign.
func (b *builderScreen) review() tea.Cmd {
	if b.newKey {
		b.err = service.UserError{Text: "Finish the new key pair first (enter in a passphrase field), or press ctrl+n to cancel it"}
		return b.setFocus(bfPass)
	}
	a, err := builder.Check(b.input())
	var fe *builder.FieldError
	switch {
	case errors.Is(err, builder.ErrKeyFields):
		b.err = service.UserError{Text: "The API key needs all three: label, signer and permissions. Fill in the missing ones, or close the section (space on “Builder API key”) to authorize without an API key"}
		return b.setFocus(b.firstEmptyKeyField())
	case errors.As(err, &fe):
		b.err = fe
		if id := builderInputOf[fe.Field]; id != bfMain {
			return b.setFocus(id)
		}
		return nil
	case err != nil:
		b.err = err
		return nil
	}
	b.err = nil
	return tui.Push(newBuilderReview(b.app, a, b.nonces()))
}

func (b *builderScreen) firstEmptyKeyField() int {
	switch {
	case strings.TrimSpace(b.inputs[bfLabel].Value()) == "":
		return bfLabel
	case strings.TrimSpace(b.inputs[bfSigner].Value()) == "":
		return bfSigner
	}
	return bfPerms
}
