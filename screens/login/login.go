// Package login is the login screen: an API key or an EIP-712 wallet
// signature, in the environment the user picks.
package login

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/clean"
	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/signer"
	"svcwallet/tui"
)

// loginDoneMsg carries the outcome of a login attempt.
type loginDoneMsg struct {
	attempt int
	session service.Session
	key     signer.Key // the wallet key, kept for signing later; nil for API key
	err     error
}

var loginKeys = struct {
	Next, Prev, Left, Right, Submit, Demo key.Binding
}{
	Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
	Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous")),
	Left:   key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "choose")),
	Right:  key.NewBinding(key.WithKeys("right")),
	Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "log in")),
	Demo:   key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "fill demo")),
}

// Login methods and wallet key sources, in the order they are offered.
const (
	methodAPIKey = iota
	methodWallet
)

const (
	sourceKeystore = iota
	sourceEnv
	sourceDemo
)

// Login field ids, in focus order; which ones show depends on the choices.
const (
	fieldEnv = iota
	fieldMethod
	fieldAPIKey
	fieldSource
	fieldKeyPick // one of the keystore's keys, or another file
	fieldKeystore
	fieldPassphrase
)

// loginScreen is the first screen: pick the environment, then log in by API key or
// by an EIP-712 wallet signature.
type loginScreen struct {
	app     *kit.App
	env     int
	method  int
	source  int
	focus   int
	apiKey  kit.Input
	path    kit.Input
	pass    kit.Input
	keys    keystorePick
	spin    spinner.Model
	busy    bool
	attempt int
	err     error
	w, h    int
}

// New builds the login screen.
func New(app *kit.App) tui.Screen {
	c := app.Common
	l := &loginScreen{
		app:    app,
		apiKey: kit.NewInput(c, "paste your API key", true),
		path:   kit.NewInput(c, "path to a keystore V3 JSON file", false),
		pass:   kit.NewPassphrase(c, "keystore passphrase"),
		spin:   spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(c.Styles.Spinner)),
	}
	for i, t := range app.Targets {
		if t.Env.Name == app.Target.Env.Name {
			l.env = i
		}
	}
	if entries, err := signer.ListKeystore(app.KeystoreDir); err == nil {
		l.keys.entries = entries
	}
	if app.Getenv != nil && app.Getenv(signer.KeyEnvVar) != "" {
		l.source = sourceEnv // the key the user exported is the one meant
	}
	if app.Getenv != nil {
		l.apiKey.SetValue(app.Getenv(service.APIKeyEnvVar))
	}
	// The key is what a newcomer has in hand: start in its field, so a
	// paste lands there at once.
	l.focus = fieldAPIKey
	return l
}

// Init shows the chosen environment in the top bar before any login.
func (l *loginScreen) Init() tea.Cmd {
	l.showEnv()
	return l.focusInput()
}

// showEnv makes the environment the form would log in to the session's, with
// no one logged in, so the top bar names it.
func (l *loginScreen) showEnv() { l.app.Session = kit.Session{Target: l.target()} }

func (l *loginScreen) Title() string { return "Log in" }

func (l *loginScreen) SetSize(w, h int) {
	l.w, l.h = w, h
	for _, in := range []*kit.Input{&l.apiKey, &l.path, &l.pass} {
		in.SetWidth(max(w-24, 10))
	}
}

func (l *loginScreen) KeyMap() help.KeyMap { return l.bindings().KeyMap() }

// bindings: nothing while a login is out; ←/→ only where there is a choice
// to change (not in a text field), ctrl+d only on an environment with demo
// credentials. shift+tab is not in the footer, tab is.
func (l *loginScreen) bindings() kit.Bindings {
	if l.busy {
		return nil
	}
	choosing := l.input() == nil
	prev := loginKeys.Prev
	prev.SetHelp("", "")
	return kit.Bindings{
		{Key: loginKeys.Submit, On: true, Do: l.submit},
		{Key: loginKeys.Next, On: true, Do: func() tea.Cmd { return l.moveFocus(1) }},
		{Key: prev, On: true, Do: func() tea.Cmd { return l.moveFocus(-1) }},
		{Key: loginKeys.Left, On: choosing, Do: func() tea.Cmd { return l.cycle(-1) }},
		{Key: loginKeys.Right, On: choosing, Do: func() tea.Cmd { return l.cycle(1) }},
		{Key: loginKeys.Demo, On: l.target().Demo != nil, Do: l.fillDemo},
	}
}

// Inputting: while a text field has the focus, q and ? are typed, not global.
func (l *loginScreen) Inputting() bool { return l.input() != nil }

// fields lists the fields shown for the current choices, in focus order.
func (l *loginScreen) fields() []int {
	var f []int
	if len(l.app.Targets) > 1 {
		f = append(f, fieldEnv)
	}
	f = append(f, fieldMethod)
	if l.method == methodAPIKey {
		return append(f, fieldAPIKey)
	}
	f = append(f, fieldSource)
	if l.source == sourceKeystore {
		if len(l.keys.entries) > 0 {
			f = append(f, fieldKeyPick)
		}
		if l.keys.other() {
			f = append(f, fieldKeystore)
		}
		f = append(f, fieldPassphrase)
	}
	return f
}

func (l *loginScreen) target() kit.Target { return l.app.Targets[l.env] }

// sources lists the wallet key sources; the demo key only on the sandbox.
func (l *loginScreen) sources() []string {
	s := []string{"keystore", "$" + signer.KeyEnvVar}
	if l.target().Demo != nil {
		s = append(s, "sandbox demo key")
	}
	return s
}

func (l *loginScreen) input() *kit.Input {
	switch l.focus {
	case fieldAPIKey:
		return &l.apiKey
	case fieldKeystore:
		return &l.path
	case fieldPassphrase:
		return &l.pass
	}
	return nil
}

func (l *loginScreen) focusInput() tea.Cmd {
	for _, in := range []*kit.Input{&l.apiKey, &l.path, &l.pass} {
		in.Blur()
	}
	if in := l.input(); in != nil {
		return in.Focus()
	}
	return nil
}

func (l *loginScreen) moveFocus(delta int) tea.Cmd {
	l.focus = kit.CycleFocus(l.fields(), l.focus, delta)
	return l.focusInput()
}

// cycle changes the choice under the focus by delta.
func (l *loginScreen) cycle(delta int) tea.Cmd {
	wrap := func(v, n int) int { return (v + delta + n) % n }
	switch l.focus {
	case fieldEnv:
		l.env = wrap(l.env, len(l.app.Targets))
		l.err = nil // it was about the other environment
		if l.source >= len(l.sources()) {
			l.source = sourceKeystore
		}
		l.showEnv()
		return nil
	case fieldMethod:
		l.method = wrap(l.method, 2)
		l.err = nil // it was about the other method
	case fieldSource:
		l.source = wrap(l.source, len(l.sources()))
		l.err = nil
	case fieldKeyPick:
		l.keys.cycle(delta)
		l.err = nil
	}
	return nil
}

// expandHome turns a leading "~/" (or a lone "~") into the home directory,
// as a shell would: the path is typed into a form, not a shell. It reads
// the environment, so it runs inside the login Cmd. Its error repeats the
// path shortened (clean.Quoted), as typed text may hold most of a key.
func expandHome(path string) (string, error) {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot expand ~ in %s (%v): type the full path", clean.Quoted(path), err)
	}
	return filepath.Join(home, strings.TrimPrefix(path[1:], "/")), nil
}

func (l *loginScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case loginDoneMsg:
		return l, l.finish(msg)
	case spinner.TickMsg:
		if !l.busy {
			return l, nil
		}
		var cmd tea.Cmd
		l.spin, cmd = l.spin.Update(msg)
		return l, cmd
	case tea.KeyPressMsg:
		if l.busy {
			return l, nil
		}
		if cmd, ok := l.bindings().Handle(msg); ok {
			return l, cmd
		}
	case tea.BackgroundColorMsg:
		l.spin.Style = l.app.Common.Styles.Spinner
		return l, nil
	}
	if in := l.input(); in != nil {
		var cmd tea.Cmd
		*in, cmd = in.Update(msg)
		return l, cmd
	}
	return l, nil
}

// fillDemo fills in the sandbox's published credentials for the chosen method.
func (l *loginScreen) fillDemo() tea.Cmd {
	demo := l.target().Demo
	l.err = nil // it was about what the demo credentials replace
	if l.method == methodAPIKey {
		l.apiKey.SetValue(demo.APIKey)
		l.focus = fieldAPIKey
	} else {
		l.source = sourceDemo
		l.focus = fieldSource
	}
	return l.focusInput()
}

// submit checks the form and starts the login in a Cmd.
func (l *loginScreen) submit() tea.Cmd {
	l.err = nil
	t := l.target()
	var cred func() (service.Credential, signer.Key, error)
	switch {
	case l.method == methodAPIKey:
		apiKey := strings.TrimSpace(l.apiKey.Value())
		if apiKey == "" {
			l.err = service.UserError{Text: "Enter an API key (paste works), or press ctrl+d on the sandbox"}
			return nil
		}
		cred = func() (service.Credential, signer.Key, error) { return service.APIKey(apiKey), nil, nil }
	case l.source == sourceKeystore:
		path, pass := l.keys.path(l.path.Value()), l.pass.Value()
		if path == "" {
			l.err = service.UserError{Text: "Enter the path of a keystore file (svcwallet key new makes one)"}
			return nil
		}
		load := l.app.LoadKeystore
		cred = func() (service.Credential, signer.Key, error) {
			path, err := expandHome(path)
			if err != nil {
				return nil, nil, err
			}
			k, err := load(path, pass)
			if err != nil {
				// The keystore's errors name the path, in full or cleaned
				// and made absolute, and it was typed: it may hold most of
				// a key, so the whole message is shortened.
				return nil, nil, service.UserError{Text: clean.Quoted(err.Error()), Cause: err}
			}
			return service.Wallet(k), k, nil
		}
	case l.source == sourceEnv:
		getenv := l.app.Getenv
		cred = func() (service.Credential, signer.Key, error) {
			raw := getenv(signer.KeyEnvVar)
			if raw == "" {
				return nil, nil, errors.New("$" + signer.KeyEnvVar + " is not set: export the raw hex key there, or use a keystore file")
			}
			k, err := signer.ParsePrivateKeyHex(raw)
			if err != nil {
				return nil, nil, fmt.Errorf("$%s: %w", signer.KeyEnvVar, err)
			}
			return service.Wallet(k), k, nil
		}
	default:
		hexKey := t.Demo.PrivateKey
		cred = func() (service.Credential, signer.Key, error) {
			k, err := signer.ParsePrivateKeyHex(hexKey)
			if err != nil {
				return nil, nil, err
			}
			return service.Wallet(k), k, nil
		}
	}
	l.busy = true
	l.attempt++
	attempt, client, parent := l.attempt, t.Client, l.app.Root()
	login := func() tea.Msg {
		c, k, err := cred()
		if err != nil {
			return loginDoneMsg{attempt: attempt, err: service.UserError{Text: err.Error(), Cause: err}}
		}
		cx, cancel := kit.Call(parent)
		defer cancel()
		s, err := client.Login(cx, c)
		return loginDoneMsg{attempt: attempt, session: s, key: k, err: err}
	}
	return tea.Batch(login, l.spin.Tick)
}

// finish moves on to the home screen, or explains the failure keeping what
// was typed except the secrets.
func (l *loginScreen) finish(msg loginDoneMsg) tea.Cmd {
	if msg.attempt != l.attempt {
		return nil
	}
	l.busy = false
	if msg.err != nil {
		l.err = loginError(msg.err, l.method)
		l.apiKey.SetValue("")
		l.pass.SetValue("")
		return nil
	}
	l.app.Session = kit.Session{Target: l.target(), Signer: msg.key}
	return tui.Reset(l.app.Makers.Home(l.app))
}

// loginError words the failures a login can meet; a refused wallet login
// comes worded by its reason from the client.
func loginError(err error, method int) error {
	if errors.Is(err, service.ErrUnauthenticated) && method == methodAPIKey {
		return service.UserError{Text: "The API key was not accepted: check it and paste it again"}
	}
	return service.Explain(err)
}

func (l *loginScreen) View() string {
	c := l.app.Common
	st := c.Styles
	const lw = 16
	t := l.target()
	var b strings.Builder
	row := func(id int, label, value string) {
		marker := "  "
		if l.focus == id {
			marker = st.Cursor.Render("› ")
		}
		b.WriteString(marker + kit.Field(c, label, lw, value) + "\n")
	}
	choice := func(id int, options []string, sel int) string {
		parts := make([]string, len(options))
		for i, o := range options {
			if i == sel {
				parts[i] = st.Selected.Render(" " + o + " ")
			} else {
				parts[i] = st.Muted.Render(" " + o + " ")
			}
		}
		s := strings.Join(parts, " ")
		hint := ""
		if l.focus == id {
			hint = st.Muted.Render("  ←/→")
		}
		// Too narrow for every option: the chosen one and where it stands.
		if 2+lw+1+ansi.StringWidth(s+hint) > l.w {
			s = st.Selected.Render(" "+options[sel]+" ") + st.Muted.Render(fmt.Sprintf("  %d of %d", sel+1, len(options)))
		}
		return s + hint
	}
	if len(l.app.Targets) > 1 {
		names := make([]string, len(l.app.Targets))
		for i, tg := range l.app.Targets {
			names[i] = tg.Env.Name
		}
		row(fieldEnv, "Environment", choice(fieldEnv, names, l.env))
	} else {
		row(fieldEnv, "Environment", st.Value.Render(t.Env.Name))
	}
	// A note under a field: cut visibly, never mid-URL without a sign.
	note := func(text string) string {
		return "  " + kit.Field(c, "", lw, st.Muted.Render(kit.Truncate(text, max(l.w-3-lw, 1), "…"))) + "\n"
	}
	b.WriteString(note(t.Env.AuthURL+" · chain id "+kit.Uitoa(t.Env.ChainID)) + "\n")
	row(fieldMethod, "Method", choice(fieldMethod, []string{"API key", "Wallet signature"}, l.method))
	if l.method == methodAPIKey {
		row(fieldAPIKey, "API key", l.apiKey.View())
	} else {
		row(fieldSource, "Key source", choice(fieldSource, l.sources(), l.source))
		switch l.source {
		case sourceKeystore:
			if len(l.keys.entries) > 0 {
				row(fieldKeyPick, "Keystore key", choice(fieldKeyPick, l.keys.options(l.w < 100), l.keys.pick))
				if f := l.keys.file(); f != "" {
					b.WriteString(note(f))
				}
			}
			if l.keys.other() {
				row(fieldKeystore, "Keystore file", l.path.View())
			}
			row(fieldPassphrase, "Passphrase", l.pass.View())
		case sourceEnv:
			state := "not set"
			if l.app.Getenv(signer.KeyEnvVar) != "" {
				state = "set"
			}
			b.WriteString(note("raw hex key read from $" + signer.KeyEnvVar + " (" + state + ")"))
		case sourceDemo:
			b.WriteString(note("the sandbox's published development key"))
		}
	}
	b.WriteString("\n")
	switch {
	case l.busy:
		b.WriteString("  " + l.spin.View() + " Logging in to " + t.Env.Name + "…\n")
	case l.err != nil:
		for _, line := range strings.Split(strings.TrimSuffix(kit.ErrorBlock(c, "Login failed", l.err, l.w-2), "\n"), "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
	if d := t.Demo; d != nil {
		b.WriteString("\n  " + kit.Field(c, "Sandbox demo", lw, "API key "+st.Value.Render(d.APIKey)) + "\n")
		b.WriteString("  " + kit.Field(c, "", lw, "wallet: key source "+st.Value.Render("sandbox demo key")) + "\n")
		b.WriteString(note("ctrl+d fills them in"))
	}
	return kit.Clip(b.String(), l.w)
}
