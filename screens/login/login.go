// Package login is the login screen: an API key or an EIP-712 wallet
// signature, in the environment the user picks.
package login

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/session"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// loginDoneMsg carries the outcome of a login attempt.
type loginDoneMsg struct {
	attempt int
	session exchange.Session
	key     signer.Key // the wallet key, kept for signing later; nil for API key
	from    string     // where key is, for the reviews (kit.Session.SignerFrom)
	err     error
	keyErr  bool // the key could not be opened (a wrong passphrase, a bad file)
}

var loginKeys = struct {
	Submit, Demo, Cancel key.Binding
}{
	Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "log in")),
	Demo:   key.NewBinding(key.WithKeys("ctrl+d"), tui.WithHelp("ctrl+d", "fill in the demo key", "fill in")),
	Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel the login")),
}

// Login methods and wallet key sources, in the order they are offered.
const (
	methodAPIKey = iota
	methodWallet
)

// The wallet key sources; sources lists those the environment offers,
// keystore and the environment key always first.
const (
	sourceKeystore = iota
	sourceEnv
	sourceClef    // clef's accounts, when the environment's signer is clef:…
	sourceCommand // the signing command (sign_command) with the config's account
	sourceDemo
)

// loginLabelWidth is the width of the form's labels.
const loginLabelWidth = 16

// loginScreen is the first screen: pick the environment, then log in by API key or
// by an EIP-712 wallet signature.
type loginScreen struct {
	app    *kit.App
	env    int
	method int
	source int // an index into kinds()
	// chosenKind is the kind at source, kept across a change of
	// environment (whose kinds() differ).
	chosenKind int
	keys       keystorePick
	clef       clefPick
	spin       spinner.Model
	busy       bool
	attempt    int
	err        error
	w, h       int
	// waiting names what a wallet login's signature waits for (clef, a
	// signing command), and cancel ends that login; esc calls it.
	waiting string
	// cancelled: esc asked the wait to end; the answer says how it ended.
	cancelled bool
	cancel    context.CancelFunc

	// The form and its fields, in order; which show depends on the choices.
	form                                                                       *kit.Form
	envField, methodField, apiKey, sourceField, keyPick, clefField, path, pass *kit.FormField
}

// New builds the login screen with the facts it reads from the disk; the
// console calls it before it runs.
func New(app *kit.App) tui.Screen { return NewWith(app, app.LoginFacts()) }

// NewWith builds the login screen with facts already read. It starts on
// wallet login when a key source is set up ($SVCWALLET_PRIVATE_KEY, or a
// key in the keystore) and no API key is exported, else on the API key.
func NewWith(app *kit.App, facts kit.LoginFacts) tui.Screen {
	c := app.Common
	l := &loginScreen{
		app:  app,
		spin: spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(c.Styles.Spinner)),
	}
	for i, t := range app.Targets {
		if t.Env.Name == app.Target.Env.Name {
			l.env = i
		}
	}
	l.keys.entries = facts.Keys
	getenv := func(k string) string { return "" }
	if app.Getenv != nil {
		getenv = app.Getenv
	}
	wallet := func() bool { return l.method == methodWallet }
	keystore := func() bool { return wallet() && l.kind() == sourceKeystore }
	l.envField = kit.ChoiceField("Environment", &l.env, l.envNames)
	l.envField.Note = func() kit.Note {
		return kit.HintNote(l.target().Env.AuthURL + " · chain id " + layout.Uitoa(l.target().Env.ChainID))
	}
	l.methodField = kit.ChoiceField("Method", &l.method, func() []string { return []string{"API key", "Wallet signature"} })
	l.methodField.Gap = true
	l.methodField.Note = l.methodNote
	l.apiKey = kit.TextField("API key", kit.NewInput(c, "paste your API key", true))
	l.apiKey.Input.Want("the API key")
	l.apiKey.Shown = func() bool { return !wallet() }
	l.sourceField = kit.ChoiceField("Key source", &l.source, l.sources)
	l.sourceField.Shown, l.sourceField.Note = wallet, l.sourceNote
	l.keyPick = kit.ChoiceField("Keystore key", &l.keys.pick, func() []string { return l.keys.options(l.w < 100) })
	l.keyPick.Shown = func() bool { return keystore() && len(l.keys.entries) > 0 }
	l.keyPick.Note = func() kit.Note { return kit.HintNote(l.keys.file()) }
	l.clefField = kit.ChoiceField("Clef account", &l.clef.pick, func() []string { return l.clef.options(l.w < 100) })
	l.clefField.Shown = func() bool { return wallet() && l.kind() == sourceClef }
	l.clefField.Note = l.clef.note
	l.path = kit.TextField("Keystore file", kit.NewInput(c, "path to a keystore V3 JSON file", false))
	l.path.Input.Want("the keystore file's path")
	l.path.Shown = func() bool { return keystore() && l.keys.other() }
	l.pass = kit.TextField("Passphrase", kit.NewPassphrase(c, "keystore passphrase"))
	l.pass.Shown = keystore
	l.form = kit.NewForm(c, loginLabelWidth, l.envField, l.methodField, l.apiKey, l.sourceField, l.keyPick, l.clefField, l.path, l.pass)
	l.form.OnChange = l.changed
	apiKey, _ := exchange.GivenAPIKey(getenv)
	l.apiKey.Input.Prefill(apiKey)
	if getenv(signer.KeyEnvVar) != "" {
		l.source = sourceEnv // the key the user exported is the one meant
	}
	// The environment's signer, clef or a signing command, is meant more.
	if len(app.Targets) > 0 {
		switch src, _ := signer.ParseSource(l.target().Env.Signer); src.Kind {
		case signer.SourceClef:
			l.choose(sourceClef)
		case signer.SourceCommand:
			l.choose(sourceCommand)
		}
	}
	// Index 0 is always the keystore.
	if apiKey == "" && (l.source != sourceKeystore || len(l.keys.entries) > 0) {
		l.method = methodWallet
	}
	// The method this environment was last logged in with comes first,
	// unless a credential exported for this run says which is meant.
	if apiKey == "" && getenv(signer.KeyEnvVar) == "" && len(app.Targets) > 0 {
		switch facts.Last {
		case session.ByAPIKey:
			l.method = methodAPIKey
		case session.ByWallet:
			l.method = methodWallet
		}
	}
	if len(app.Targets) > 0 {
		l.chosenKind = l.kind()
	}
	return l
}

// kinds are the wallet key sources the chosen environment offers, in order.
func (l *loginScreen) kinds() []int {
	k := []int{sourceKeystore, sourceEnv}
	if l.clefEndpoint() != "" {
		k = append(k, sourceClef)
	}
	if l.signCommand() != "" {
		k = append(k, sourceCommand)
	}
	if l.target().Demo != nil {
		k = append(k, sourceDemo)
	}
	return k
}

// kind is the chosen wallet key source.
func (l *loginScreen) kind() int {
	if k := l.kinds(); l.source < len(k) {
		return k[l.source]
	}
	return sourceKeystore
}

// choose picks the wallet key source kind, when offered.
func (l *loginScreen) choose(kind int) {
	for i, k := range l.kinds() {
		if k == kind {
			l.source = i
		}
	}
}

// clefEndpoint is the environment's clef, when its signer is clef:…; "".
func (l *loginScreen) clefEndpoint() string {
	if src, err := signer.ParseSource(l.target().Env.Signer); err == nil && src.Kind == signer.SourceClef {
		return src.Endpoint
	}
	return ""
}

// signCommand is the environment's sign_command, else $SVCWALLET_SIGN_COMMAND.
func (l *loginScreen) signCommand() string {
	return signer.SignCommandLine(l.target().Env.SignCommand, l.app.Getenv)
}

// first is the field to start in: the API key's, so a paste lands there
// at once; or, when a wallet signature is chosen because a key is set up,
// the method itself, its note saying so, so that an API key is not typed
// into the passphrase's field by mistake.
func (l *loginScreen) first() *kit.FormField {
	if l.method == methodAPIKey {
		return l.apiKey
	}
	return l.methodField
}

// methodNote says, while the method has the focus, which one is chosen
// and how to change it.
func (l *loginScreen) methodNote() kit.Note {
	switch {
	case l.form == nil || l.form.Focused() != l.methodField:
		return kit.Note{}
	case l.method == methodWallet:
		return kit.HintNote("a wallet signature with the key source below; ←/→ for an API key; tab goes on")
	}
	return kit.HintNote("the API key below; ←/→ for a wallet signature; tab goes on")
}

// Init shows the chosen environment in the top bar before any login.
func (l *loginScreen) Init() tea.Cmd {
	l.showEnv()
	return tea.Batch(l.form.Focus(l.first()), l.askClef())
}

// showEnv makes the environment the form would log in to the session's, with
// no one logged in, so the top bar names it.
func (l *loginScreen) showEnv() { l.app.Session = kit.Session{Target: l.target()} }

func (l *loginScreen) Title() string { return "Log in" }

func (l *loginScreen) SetSize(w, h int) {
	l.w, l.h = w, h
	l.form.SetWidth(w)
}

func (l *loginScreen) KeyMap() help.KeyMap { return l.bindings().KeyMap() }

// bindings: nothing while a login is out; enter, the form's keys, ctrl+d
// only on an environment with demo credentials.
func (l *loginScreen) bindings() kit.Bindings {
	if l.busy {
		return kit.Bindings{{Key: loginKeys.Cancel, On: l.waiting != "" && !l.cancelled, Do: func() tea.Cmd {
			l.cancel()
			l.cancelled = true
			return nil
		}}}
	}
	bs := append(kit.Bindings{{Key: loginKeys.Submit, On: true, Do: l.submit}}, l.form.Bindings()...)
	return append(bs, kit.Binding{Key: loginKeys.Demo, On: l.target().Demo != nil, Do: l.fillDemo})
}

// Inputting: while a text field has the focus, q and ? are typed, not global.
func (l *loginScreen) Inputting() bool { return l.form.Inputting() }

func (l *loginScreen) target() target.Target { return l.app.Targets[l.env] }

func (l *loginScreen) envNames() []string {
	names := make([]string, len(l.app.Targets))
	for i, tg := range l.app.Targets {
		names[i] = tg.Env.Name
	}
	return names
}

// sources names the wallet key sources kinds lists; the demo key only on
// the sandbox.
func (l *loginScreen) sources() []string {
	var s []string
	for _, k := range l.kinds() {
		switch k {
		case sourceKeystore:
			s = append(s, "keystore")
		case sourceEnv:
			s = append(s, "$"+signer.KeyEnvVar)
		case sourceClef:
			s = append(s, "clef")
		case sourceCommand:
			s = append(s, "signing command")
		case sourceDemo:
			s = append(s, "sandbox demo key")
		}
	}
	return s
}

// sourceNote says where the chosen source reads its key.
func (l *loginScreen) sourceNote() kit.Note {
	switch l.kind() {
	case sourceClef:
		return kit.HintNote("clef at " + l.clefEndpoint() + ": you approve the login there")
	case sourceCommand:
		// A line enter would refuse is refused now, not named as if it
		// would run (the check is pure: nothing runs).
		if err := signer.CheckSignCommand(l.signCommand()); err != nil {
			return kit.BadNote(fmt.Errorf("the signing command: %w", err))
		}
		account := l.target().Env.Account
		if account == "" {
			return kit.BadNote(config.ErrNoCommandAccount)
		}
		return kit.HintNote(commandName(l.signCommand()) + " · account " + account)
	case sourceEnv:
		state := "not set"
		if l.app.Getenv(signer.KeyEnvVar) != "" {
			state = "set"
		}
		return kit.HintNote("raw hex key read from $" + signer.KeyEnvVar + " (" + state + ")")
	case sourceDemo:
		return kit.HintNote("the sandbox's published development key")
	}
	return kit.Note{}
}

// changed: an error about what was there before goes; a new environment
// shows in the top bar, and may offer fewer key sources.
func (l *loginScreen) changed(fd *kit.FormField) {
	l.err = nil
	if fd == l.envField {
		// The choice is an index into the environment's sources, which
		// differ: the kind chosen is kept where offered, else the keystore,
		// never whatever kind now sits at the same place.
		l.source = 0 // the keystore, always first
		l.choose(l.chosenKind)
		l.showEnv()
	}
	l.chosenKind = l.kind()
}

func (l *loginScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	s, cmd := l.update(msg)
	return s, tea.Batch(cmd, l.askClef())
}

// askClef asks clef for its accounts (in a Cmd) when clef is the chosen
// source and its accounts are not yet asked for.
func (l *loginScreen) askClef() tea.Cmd {
	ep := l.clefEndpoint()
	if l.method != methodWallet || l.kind() != sourceClef || ep == "" || l.clef.endpoint == ep {
		return nil
	}
	account := common.Address{}
	if a := l.target().Env.Account; common.IsHexAddress(a) {
		account = common.HexToAddress(a)
	}
	return l.clef.ask(ep, l.target().Env.SignWait(), account, l.app.Root())
}

func (l *loginScreen) update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case clefAccountsMsg:
		l.clef.answered(msg)
		return l, nil
	case loginDoneMsg:
		return l, l.finish(msg)
	case spinner.TickMsg:
		return l, kit.SpinWhile(&l.spin, msg, l.busy)
	case tea.KeyPressMsg:
		var guard tea.Cmd
		if !l.busy {
			guard = l.form.Guard(msg) // the field's rule before the screen's keys
		}
		if cmd, ok := l.bindings().Handle(msg); ok || l.busy {
			return l, tea.Batch(guard, cmd)
		}
		return l, tea.Batch(guard, l.form.Update(msg))
	case tea.BackgroundColorMsg:
		l.spin.Style = l.app.Common.Styles.Spinner
		return l, nil
	}
	return l, l.form.Update(msg)
}

// fillDemo fills in the sandbox's published credentials for the chosen method.
func (l *loginScreen) fillDemo() tea.Cmd {
	demo := l.target().Demo
	if l.method == methodAPIKey {
		l.apiKey.Input.Prefill(demo.APIKey)
		l.form.Changed(l.apiKey)
		return l.form.Focus(l.apiKey)
	}
	l.choose(sourceDemo)
	l.form.Changed(l.sourceField)
	return l.form.Focus(l.sourceField)
}

func (l *loginScreen) View() string {
	c := l.app.Common
	st := c.Styles
	const lw = loginLabelWidth
	t := l.target()
	var b strings.Builder
	b.WriteString(l.form.View() + "\n")
	switch {
	case l.busy && l.waiting != "":
		// Wrapped, not clipped: what is awaited and that esc cancels are read whole.
		line := l.spin.View() + " Logging in to " + t.Env.Name + ": waiting for " + l.waiting + "… " + st.Muted.Render("(esc cancels)")
		if l.cancelled {
			line = l.spin.View() + " Cancelling the wait for " + l.waiting + "…"
		}
		b.WriteString(layout.Indent(strings.Split(layout.WrapTo(line, max(l.w-2, 20)), "\n"), 2))
	case l.busy:
		b.WriteString("  " + l.spin.View() + " Logging in to " + t.Env.Name + "…\n")
	case l.err != nil:
		b.WriteString(layout.Indent(strings.Split(strings.TrimSuffix(layout.ErrorBlock(c, "Login failed", l.err, l.w-2), "\n"), "\n"), 2))
	case t.Unkept != "":
		// Why no login was skipped: the user could not guess it.
		for _, line := range strings.Split(layout.WrapTo(safetext.Capitalized(t.Unkept)+".", max(l.w-4, 20)), "\n") {
			b.WriteString("  " + st.Warning.Render(line) + "\n")
		}
	}
	if d := t.Demo; d != nil {
		b.WriteString("\n  " + layout.Field(c, "Sandbox demo", lw, "API key "+st.Value.Render(d.APIKey)) + "\n")
		b.WriteString("  " + layout.Field(c, "", lw, "wallet: key source "+st.Value.Render("sandbox demo key")) + "\n")
		b.WriteString("  " + layout.Field(c, "", lw, st.Muted.Render("ctrl+d fills them in")) + "\n")
	}
	return layout.Clip(b.String(), l.w)
}
