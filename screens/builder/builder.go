// Package builder authorizes a builder account, with or without a builder
// API key: the form, the review of what is signed, and the result.
package builder

import (
	"cmp"
	"errors"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// builderKeyMadeMsg answers the creation of a key pair for the builder's API key.
type builderKeyMadeMsg struct {
	addr common.Address
	path string
	err  error
}

var builderKeys = struct {
	Review, Create, NewKey, Toggle, Left, Right, Demo key.Binding
}{
	Review: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review")),
	Create: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "create key pair")),
	NewKey: key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "new key pair")),
	Toggle: key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space", "toggle")),
	Left:   key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→ 1-6", "choose")),
	Right:  key.NewBinding(key.WithKeys("right")),
	Demo:   key.NewBinding(key.WithKeys("ctrl+r"), tui.WithHelp("ctrl+r", "fill in the sandbox builder", "fill in")),
}

// builderWants is what each text field asks for, said when it clears a
// recovery phrase (kit.SecretCleared).
var builderWants = map[builder.Field]string{
	builder.FieldBuilder: "the builder's account address", builder.FieldFuturesFee: "the max futures fee, in percent",
	builder.FieldSpotFee: "the max spot fee, in percent", builder.FieldExpires: "how long it is valid, such as 7d",
	builder.FieldLabel: "the API key's label", builder.FieldKeySigner: "the address of the key that will sign",
}

// builderScreen is the builder-authorization form (SPEC.md §4.4): the builder, its
// fee caps and the signature's validity, and optionally an API key for the
// builder (label, signer, permissions). Enter goes to the review.
type builderScreen struct {
	app     *kit.App
	main    string             // the logged-in funding address
	withKey bool               // the API-key section is open
	newKey  bool               // the passphrase fields of a new key pair are open
	making  bool               // a key pair is being created and encrypted
	chosen  signer.Permissions // chosen permissions, default Trade
	permAt  int                // highlighted permission, index into signer.AllPermissions
	made    string             // keystore file of the key pair made here
	err     error
	nonces  func() uint32 // signer.NewNonce; tests fix it
	// keyKnown: the look for the key that signs answered (lookForKey);
	// noKey is its builder.NoKeyError, nil when a key signs.
	keyKnown bool
	noKey    error
	wd, h    int

	// The form and its rows: the inputs builder.Check names (fieldOf),
	// the API-key section's switch and the new key pair's passphrases.
	form                                      *kit.Form
	mainRow, builder, futures, spot, expires  *kit.FormField
	toggle, label, signer, pass, pass2, perms *kit.FormField
	fieldOf                                   map[builder.Field]*kit.FormField
}

// New builds the builder authorization form for the logged-in account.
func New(app *kit.App) tui.Screen {
	c := app.Common
	s, _ := app.Client().Session()
	b := &builderScreen{app: app, main: s.FundingAccountAddress, nonces: signer.NewNonce,
		chosen: signer.Permissions(0).With(signer.PermTrade), permAt: len(signer.AllPermissions) - 1}
	// A field's placeholder is its question's: what an empty answer takes,
	// or how to answer.
	text := func(f builder.Field, width int) *kit.FormField {
		q := f.Question()
		fd := kit.TextField(f.Label(), kit.NewInput(c, cmp.Or(q.Empty, q.How), false))
		fd.Input.Want(builderWants[f])
		fd.Width, fd.Beside = width, true
		fd.Input.CharLimit = 128
		return fd
	}
	b.mainRow = &kit.FormField{Label: builder.FieldMain.Label(), Value: b.mainText, Width: 42, Beside: true,
		Note: func() kit.Note { return kit.HintNote("its key signs") }}
	// Fee fields fit their longest valid value, "429496.7295%".
	b.builder = text(builder.FieldBuilder, 42)
	b.futures = text(builder.FieldFuturesFee, 12)
	b.spot = text(builder.FieldSpotFee, 12)
	b.expires = text(builder.FieldExpires, 8)
	b.expires.Input.Prefill("7d")
	b.builder.Note = func() kit.Note { return b.addressNote(b.builder, true) }
	b.futures.Note = func() kit.Note { return b.feeNote(b.futures) }
	b.spot.Note = func() kit.Note { return b.feeNote(b.spot) }
	b.expires.Note = b.expiresNote
	withKey := func() bool { return b.withKey }
	b.toggle = &kit.FormField{Label: "Builder API key", Value: b.toggleText, Keys: b.toggleKeys, Gap: true, Beside: true,
		Note: func() kit.Note { return kit.HintNote("space") }}
	b.label = text(builder.FieldLabel, 32)
	b.signer = text(builder.FieldKeySigner, 48)
	b.signer.Input.Placeholder = "paste an address, or ctrl+n for a new key pair"
	b.signer.Note = func() kit.Note { return b.addressNote(b.signer, false) }
	b.label.Shown, b.signer.Shown = withKey, withKey
	b.pass = kit.TextField("New passphrase", kit.NewPassphrase(c, "encrypts the new key file"))
	b.pass2 = kit.TextField("Repeat it", kit.NewPassphrase(c, "type it again"))
	for _, fd := range []*kit.FormField{b.pass, b.pass2} {
		fd.Width, fd.Beside, fd.Shown = 24, true, func() bool { return b.newKey }
		fd.Input.CharLimit = 128
	}
	b.pass2.Note = func() kit.Note { return kit.HintNote("enter creates the key pair") }
	b.perms = &kit.FormField{Label: builder.FieldPermissions.Label(), Value: b.permsView, Keys: b.permKeys, Note: b.permsNote, Shown: withKey}
	b.fieldOf = map[builder.Field]*kit.FormField{
		builder.FieldMain: b.mainRow, builder.FieldBuilder: b.builder,
		builder.FieldFuturesFee: b.futures, builder.FieldSpotFee: b.spot, builder.FieldExpires: b.expires,
		builder.FieldLabel: b.label, builder.FieldKeySigner: b.signer, builder.FieldPermissions: b.perms,
	}
	b.form = kit.NewForm(c, bldLabelWidth, b.mainRow, b.builder, b.futures, b.spot, b.expires,
		b.toggle, b.label, b.signer, b.pass, b.pass2, b.perms)
	b.form.OnChange = func(*kit.FormField) { b.err = nil }
	return b
}

func (b *builderScreen) Init() tea.Cmd { return tea.Batch(b.form.Focus(b.builder), b.lookForKey()) }

func (b *builderScreen) Title() string { return "Builder authorization" }

func (b *builderScreen) SetSize(w, h int) {
	b.wd, b.h = w, h
	b.form.SetWidth(w)
}

// bldLabelWidth is the width of the form's labels.
const bldLabelWidth = 16

func (b *builderScreen) KeyMap() help.KeyMap { return b.bindings().KeyMap() }

// bindings: none while the form is inert; enter reviews (or, in a
// passphrase field, creates the key pair), then the form's keys (the switch's and the permission picker's
// among them), then ctrl+r on the sandbox, which fills the builder field
// from any field (as the form's body says) but is offered only in it, then
// ctrl+n, which acts everywhere but is offered only in
// text fields once the API-key section is open. Nothing acts while a key
// pair is being made.
func (b *builderScreen) bindings() kit.Bindings {
	if b.making || b.inert() {
		return nil
	}
	submit := kit.Binding{Key: builderKeys.Review, On: true, Do: b.review}
	newKey := kit.Binding{Key: builderKeys.NewKey, On: true, Do: b.toggleNewKey}
	switch fd := b.form.Focused(); {
	case fd == b.pass || fd == b.pass2:
		submit = kit.Binding{Key: builderKeys.Create, On: true, Do: b.makeKey}
		newKey.Key.SetHelp("ctrl+n", "cancel new key")
	case !b.withKey || !b.form.Inputting():
		newKey.Key.SetHelp("", "")
	}
	demo := kit.Binding{Key: builderKeys.Demo, On: b.demoBuilder() != "", Do: func() tea.Cmd {
		b.builder.Input.SetValue(b.demoBuilder())
		b.form.Changed(b.builder)
		return nil
	}}
	if b.form.Focused() != b.builder {
		demo.Key.SetHelp("", "") // the form's body names it: the footer keeps its room
	}
	return append(append(kit.Bindings{submit}, b.form.Bindings()...), demo, newKey)
}

// demoBuilder is the sandbox's builder account, "" on another environment.
func (b *builderScreen) demoBuilder() string {
	if d := b.app.Target.Demo; d != nil {
		return d.Builder
	}
	return ""
}

// toggleKeys open and close the API-key section: space, or ←/→ unlisted.
func (b *builderScreen) toggleKeys() kit.Bindings {
	flip := func() tea.Cmd {
		b.withKey, b.newKey = !b.withKey, false
		b.form.Changed(b.toggle)
		return nil
	}
	left := builderKeys.Left
	left.SetHelp("", "")
	return kit.Bindings{{Key: builderKeys.Toggle, On: true, Do: flip}, {Key: left, On: true, Do: flip}, {Key: builderKeys.Right, On: true, Do: flip}}
}

// permKeys move through the permissions (←/→) and turn the highlighted one
// (space) or any by its number on and off.
func (b *builderScreen) permKeys() kit.Bindings {
	n := len(signer.AllPermissions)
	move := func(delta int) func() tea.Cmd {
		return func() tea.Cmd { b.permAt = (b.permAt + delta + n) % n; return nil }
	}
	bs := kit.Bindings{{Key: builderKeys.Toggle, On: true, Do: func() tea.Cmd { return b.flipPermission(b.permAt) }},
		{Key: builderKeys.Left, On: true, Do: move(-1)}, {Key: builderKeys.Right, On: true, Do: move(1)}}
	for d := range n {
		bs = append(bs, kit.Binding{Key: key.NewBinding(key.WithKeys(strconv.Itoa(d + 1))), On: true, Do: func() tea.Cmd { return b.flipPermission(d) }})
	}
	return bs
}

// Inputting: text fields take q and ? as text; an inert form takes none.
func (b *builderScreen) Inputting() bool { return !b.inert() && b.form.Inputting() }

func (b *builderScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case builderKeyMadeMsg:
		return b, b.keyMade(msg)
	case builderKeyMsg:
		b.keyKnown, b.noKey = true, msg.err
		return b, nil
	case tea.PasteMsg:
		if b.inert() {
			return b, nil
		}
	case tea.KeyPressMsg:
		if b.making || b.inert() {
			return b, nil
		}
		guard := b.form.Guard(msg) // the field's rule before the screen's keys
		if cmd, ok := b.bindings().Handle(msg); ok {
			return b, tea.Batch(guard, cmd)
		}
		return b, tea.Batch(guard, b.form.Update(msg))
	}
	return b, b.form.Update(msg)
}

// flipPermission turns the i-th permission on or off and highlights it.
func (b *builderScreen) flipPermission(i int) tea.Cmd {
	b.permAt = i
	b.chosen ^= signer.Permissions(0).With(signer.AllPermissions[i])
	b.form.Changed(b.perms)
	return nil
}

// toggleNewKey opens (or closes) the passphrase fields of a new key pair,
// opening the API-key section if needed.
func (b *builderScreen) toggleNewKey() tea.Cmd {
	b.form.Changed(b.signer) // a key pair made here is its signer
	if b.newKey {
		b.newKey = false
		b.clearPassphrases()
		return b.form.Focus(b.signer)
	}
	b.withKey, b.newKey = true, true
	return b.form.Focus(b.pass)
}

func (b *builderScreen) clearPassphrases() {
	b.pass.Input.SetValue("")
	b.pass2.Input.SetValue("")
}

// makeKey creates a key pair in the keystore's builder folder, in a Cmd:
// scrypt takes a second. Kept apart, it never stands as a login key.
func (b *builderScreen) makeKey() tea.Cmd {
	p1, p2 := b.pass.Input.Value(), b.pass2.Input.Value()
	switch {
	case b.app.KeystoreDir == "":
		b.err = exchange.UserError{Text: "No keystore directory to save the key in: set $" + signer.KeystoreEnvVar + ", or paste the address of a key made elsewhere"}
		return nil
	case p1 == "":
		return b.form.Fail(b.pass, exchange.UserError{Text: "Choose a passphrase for the new key file"})
	case p1 != p2:
		b.clearPassphrases()
		return b.form.Fail(b.pass, exchange.UserError{Text: "The passphrases differ: type them again"})
	}
	b.making, b.err = true, nil
	dir := signer.BuilderKeysDir(b.app.KeystoreDir)
	return func() tea.Msg {
		addr, path, err := signer.NewKeystoreKey(dir, p1)
		return builderKeyMadeMsg{addr: addr, path: path, err: err}
	}
}

func (b *builderScreen) keyMade(msg builderKeyMadeMsg) tea.Cmd {
	b.making = false
	b.clearPassphrases()
	if msg.err != nil {
		b.err = exchange.UserError{Text: "The key pair was not created: " + msg.err.Error(), Cause: msg.err}
		return nil
	}
	b.newKey, b.made = false, msg.path
	b.signer.Input.Prefill(msg.addr.Hex())
	return tea.Batch(b.form.Focus(b.perms), tui.ShowInfo("New key pair "+msg.addr.Hex()+" saved with the builder keys, not a login key"))
}

// input collects what the form holds; a closed API-key section sends none
// of the three fields.
func (b *builderScreen) input() builder.Input {
	in := builder.Input{
		Main: b.main, Builder: b.builder.Input.Value(),
		FuturesFee: b.futures.Input.Value(), SpotFee: b.spot.Input.Value(), Expires: b.expires.Input.Value(),
	}
	if b.withKey {
		in.Label, in.KeySigner, in.Permissions = b.label.Input.Value(), b.signer.Input.Value(), b.chosen.String()
	}
	return in
}

// review checks the whole form in the domain (builder.Check) and shows the
// message to sign; the first field it refuses gets the focus with the
// reason under it.
func (b *builderScreen) review() tea.Cmd {
	if b.newKey {
		return b.form.Fail(b.pass, exchange.UserError{Text: "Finish the new key pair first (enter in a passphrase field), or press ctrl+n to cancel it"})
	}
	a, err := builder.Check(b.input())
	var fe *builder.FieldError
	switch {
	case errors.Is(err, builder.ErrKeyFields):
		return b.form.Fail(b.firstEmptyKeyField(), exchange.UserError{Text: "The API key needs all three: label, signer and permissions. Fill in the missing ones, or close the section (space on “Builder API key”) to authorize without an API key"})
	case errors.As(err, &fe):
		return b.form.Fail(b.fieldOf[fe.Field], fe.Err)
	case err != nil:
		b.err = err
		return nil
	}
	b.err = nil
	return tui.Push(newBuilderReview(b.app, a, b.nonces()))
}

func (b *builderScreen) firstEmptyKeyField() *kit.FormField {
	for _, fd := range []*kit.FormField{b.label, b.signer} {
		if strings.TrimSpace(fd.Input.Value()) == "" {
			return fd
		}
	}
	return b.perms
}
