package login

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/session"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestLoginErrorGoesWithWhatItWasAbout (issue 12 bugs 5, 3): a failed
// login's error goes when ctrl+d fills the demo credentials and when the
// environment changes; ctrl+d is offered only where demo credentials exist.
func TestLoginErrorGoesWithWhatItWasAbout(t *testing.T) {
	c := screentest.NewConsole(t, 100, 30, screentest.ConsoleOpts{Start: New})
	prod := c.App.Targets[0]
	prod.Env.Name, prod.Demo = "production", nil
	c.App.Targets = append(c.App.Targets, prod)
	fail := func() {
		c.TypeText("not-a-key")
		c.Press("enter")
		c.UntilShows("Login failed")
	}
	fail()
	c.Press("ctrl+d")
	if v := c.Plain(); strings.Contains(v, "Login failed") {
		t.Fatalf("the error stays after ctrl+d:\n%s", v)
	}
	fail()
	c.Press("shift+tab", "shift+tab", "right") // to the environment; the next one
	c.Until("the production environment", func(v string) bool { return strings.Contains(v, "production") })
	v := c.Plain()
	if strings.Contains(v, "Login failed") {
		t.Errorf("the error stays after changing the environment:\n%s", v)
	}
	if strings.Contains(v, "ctrl+d") {
		t.Errorf("production offers ctrl+d:\n%s", v)
	}
}

// TestLoginOpensOnTheMethodRemembered (issue 35 item 13): the login opens
// on the method this environment was last logged in with, even where a key
// in the keystore would choose a wallet signature, unless a credential is
// exported for this run; a login records its method for the next one.
func TestLoginOpensOnTheMethodRemembered(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	env := map[string]string{}
	app.Getenv = func(k string) string { return env[k] }
	app.LoginMethods = session.Methods{File: filepath.Join(t.TempDir(), session.MethodsFile)}
	name := app.Target.Env.Name
	lightScrypt(t)
	start := func() *loginScreen {
		l := New(app).(*loginScreen)
		l.SetSize(120, 40)
		screentest.Drive(l, l.Init())
		return l
	}
	if _, _, err := signer.ImportRawKey(app.KeystoreDir, sandbox.DemoPrivateKey, "pw"); err != nil {
		t.Fatal(err)
	}
	if err := app.LoginMethods.Remember(name, session.ByAPIKey); err != nil {
		t.Fatal(err)
	}
	l := start()
	if l.method != methodAPIKey || l.form.Focused() != l.apiKey {
		t.Fatalf("last logged in by API key, with a key in the keystore: method %d, focus on %s", l.method, l.form.Focused().Label)
	}
	env[signer.KeyEnvVar] = sandbox.DemoPrivateKey
	if l := start(); l.method != methodWallet || l.source != sourceEnv {
		t.Errorf("with $%s exported: method %d, source %d", signer.KeyEnvVar, l.method, l.source)
	}
	delete(env, signer.KeyEnvVar)
	if err := app.LoginMethods.Remember(name, session.ByWallet); err != nil { // as if another console logged in so since
		t.Fatal(err)
	}
	screentest.TypeInto(l, sandbox.DemoAPIKey)
	_, cmd := screentest.Press(l, "enter")
	screentest.Drive(l, cmd)
	if got := app.LoginMethods.Last(name); got != session.ByAPIKey {
		t.Fatalf("after an API key login the file says %q", got)
	}
	if err := app.LoginMethods.Remember(name, session.ByWallet); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(app.KeystoreDir); err != nil {
		t.Fatal(err)
	}
	if l := start(); l.method != methodWallet || l.form.Focused() != l.methodField ||
		!strings.Contains(ansi.Strip(l.View()), "a wallet signature with the key source below; ←/→ for an API key") {
		t.Errorf("last logged in by wallet, no key in the keystore: method %d, focus on %s", l.method, l.form.Focused().Label)
	}
}

// TestLoginFocusesWhatIsMissing (issue 21 item 16): enter with a field
// left empty puts the focus on it, with the reason under it.
func TestLoginFocusesWhatIsMissing(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	l := New(app).(*loginScreen)
	l.SetSize(120, 40)
	screentest.Drive(l, l.Init())
	screentest.Press(l, "shift+tab") // the method
	if _, cmd := screentest.Press(l, "enter"); cmd != nil || l.busy || l.form.Focused() != l.apiKey {
		t.Fatalf("enter with no API key: busy %v, focus on %s", l.busy, l.form.Focused().Label)
	}
	if under := screentest.LineAfter(ansi.Strip(l.View()), "› API key"); !strings.Contains(under, "✗ Enter an API key") {
		t.Errorf("no reason under the API key: %q", under)
	}
	screentest.TypeInto(l, "k")
	if strings.Contains(ansi.Strip(l.View()), "Enter an API key") {
		t.Error("the reason stays after typing")
	}
	l.method, l.source = methodWallet, sourceKeystore
	l.form.Focus(l.pass)
	screentest.Press(l, "enter")
	if l.form.Focused() != l.path || !strings.Contains(screentest.LineAfter(ansi.Strip(l.View()), "› Keystore file"), "✗ Enter the path of a keystore file") {
		t.Errorf("enter with no keystore file: focus on %s\n%s", l.form.Focused().Label, ansi.Strip(l.View()))
	}
}

// TestLoginAPIKeyFromEnvironment: $SVCWALLET_API_KEY pre-fills the API key
// field (masked), so enter alone logs in.
func TestLoginAPIKeyFromEnvironment(t *testing.T) {
	c := screentest.NewConsole(t, 100, 30, screentest.ConsoleOpts{Start: New, Env: map[string]string{exchange.APIKeyEnvVar: sandbox.DemoAPIKey}})
	for _, line := range strings.Split(c.Plain(), "\n") {
		if strings.Contains(line, "› API key") && (strings.Contains(line, sandbox.DemoAPIKey) || !strings.Contains(line, "••••")) {
			t.Fatalf("the API key field is not pre-filled, or shows the key in clear: %q", line)
		}
	}
	c.LoginAPIKey("")
}

// TestLoginIdle: a static cursor, and a spinner only while logging in.
func TestLoginIdle(t *testing.T) {
	c := screentest.NewConsole(t, 120, 40, screentest.ConsoleOpts{Start: New})
	l := New(c.App).(*loginScreen)
	l.SetSize(120, 38)
	screentest.RunCmdSync(t, l.Init())
	screentest.RequireIdle(t, l, "login form", screentest.OtherMsgs()...)
	screentest.RequireIdle(t, l, "login form", l.spin.Tick())
	if _, cmd := l.Update(screentest.Key("x")); cmd != nil {
		t.Error("typing returned a command (a blinking cursor redraws an idle screen)")
	}
	_, cmd := l.Update(screentest.Key("enter")) // key "x": refused by the sandbox
	msgs := screentest.RunCmdSync(t, cmd)
	if _, cmd := l.Update(screentest.FindMsg[spinner.TickMsg](t, msgs)); cmd == nil {
		t.Fatal("while logging in, the spinner does not tick")
	}
	l.Update(screentest.FindMsg[loginDoneMsg](t, msgs))
	if l.err == nil {
		t.Fatal("the wrong key was accepted")
	}
	screentest.RequireIdle(t, l, "after a failed login", l.spin.Tick())
	screentest.RequireIdle(t, l, "after a failed login", screentest.OtherMsgs()...)
}

// TestTypingAndPastingNeverQuit: in the API key field, q and ? are text and
// a bracketed paste goes to the field.
func TestTypingAndPastingNeverQuit(t *testing.T) {
	c := screentest.NewConsole(t, 120, 40, screentest.ConsoleOpts{Start: New})
	screentest.TypeAndPasteUnderRoot(t, "login", c.App, New(c.App).(*loginScreen))
}

// TestKeyNeverKept: a private key typed or pasted into the API key or the
// keystore file field is cleared and said, never shown (issue 17 item 7).
func TestKeyNeverKept(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	l := New(app).(*loginScreen)
	screentest.RequireKeyCleared(t, app, l,
		screentest.KeyField{Name: "API key", Value: func() string { return l.apiKey.Input.Value() }},
		screentest.KeyField{Name: "keystore file", Focus: func() tea.Cmd {
			l.method, l.source = methodWallet, sourceKeystore
			return l.form.Focus(l.path)
		}, Value: func() string { return l.path.Input.Value() }})
}

// TestLoginKeepsWhatWasTypedUnlessRefused (issue 21 bug 11): a failed login
// keeps the API key and the passphrase for another try, unless the failure
// was about them: the service refused the key, or the passphrase did not
// open the keystore.
func TestLoginKeepsWhatWasTypedUnlessRefused(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	refused := &exchange.APIError{Status: 401, Code: exchange.CodeNotAuthenticated}
	network := errors.New("dial tcp 127.0.0.1:8700: connect: connection refused")
	for _, tc := range []struct {
		name              string
		method            int
		msg               loginDoneMsg
		keepKey, keepPass bool
	}{
		{"api key, network", methodAPIKey, loginDoneMsg{err: network}, true, true},
		{"api key, service error", methodAPIKey, loginDoneMsg{err: &exchange.APIError{Status: 502}}, true, true},
		{"api key, refused", methodAPIKey, loginDoneMsg{err: refused}, false, true},
		{"wallet, network", methodWallet, loginDoneMsg{err: network}, true, true},
		{"wallet, wrong passphrase", methodWallet, loginDoneMsg{err: errors.New("could not decrypt key with given password"), keyErr: true}, true, false},
		{"wallet, signature refused", methodWallet, loginDoneMsg{err: refused}, true, false},
	} {
		l := New(app).(*loginScreen)
		l.method = tc.method
		l.apiKey.Input.SetValue("typed-api-key")
		l.pass.Input.SetValue("typed passphrase")
		tc.msg.attempt = l.attempt
		l.finish(tc.msg)
		if kept := l.apiKey.Input.Value() != ""; kept != tc.keepKey {
			t.Errorf("%s: API key kept %v, want %v", tc.name, kept, tc.keepKey)
		}
		if kept := l.pass.Input.Value() != ""; kept != tc.keepPass {
			t.Errorf("%s: passphrase kept %v, want %v", tc.name, kept, tc.keepPass)
		}
		if l.err == nil {
			t.Errorf("%s: no error shown", tc.name)
		}
	}
}

// TestLoginAPIKeyInPassphrase (issue 35 item 13): on wallet login with a
// keystore key, an API key typed into the passphrase's field does not
// open the key: the screen says it has an API key's shape and how to log
// in with one, and clears the field.
func TestLoginAPIKeyInPassphrase(t *testing.T) {
	lightScrypt(t)
	app, _ := screentest.LoggedInApp(t)
	app.Getenv = func(string) string { return "" }
	if _, _, err := signer.ImportRawKey(app.KeystoreDir, sandbox.DemoPrivateKey, "pw"); err != nil {
		t.Fatal(err)
	}
	l := New(app).(*loginScreen)
	l.SetSize(120, 40)
	screentest.Drive(l, l.Init())
	l.form.Focus(l.pass)
	for _, r := range sandbox.DemoAPIKey {
		screentest.Drive(l, func() tea.Msg { return tea.KeyPressMsg{Code: r, Text: string(r)} })
	}
	_, cmd := screentest.Press(l, "enter")
	screentest.Drive(l, cmd)
	v := screentest.OneLine(ansi.Strip(l.View()))
	if !strings.Contains(v, "it has the shape of an API key: it was cleared") || !strings.Contains(v, "choose Method: API key") || l.pass.Input.Value() != "" {
		t.Errorf("the passphrase field holds %d characters:\n%s", len(l.pass.Input.Value()), ansi.Strip(l.View()))
	}
}

// TestLoginSaysWhyTheKeptSessionWasLeft: a wallet session kept between
// runs that does not serve beside the signing key given (target.Unkept) is
// said on the login it left the user at, whole: they could not guess why
// they were asked to log in.
func TestLoginSaysWhyTheKeptSessionWasLeft(t *testing.T) {
	const why = "the wallet session kept for local was made by an earlier version of svcwallet, which did not record its wallet, so it is not used beside a signing key; run svcwallet auth login --env local again to keep one that records it"
	c := screentest.NewConsole(t, 100, 30, screentest.ConsoleOpts{Start: func(app *kit.App) tui.Screen {
		app.Target.Unkept = why
		app.Targets[0].Unkept = why
		return New(app)
	}})
	c.Until("why the kept session was left", func(v string) bool {
		return strings.Contains(strings.Join(strings.Fields(v), " "), "The wallet session kept for local was made by an earlier version of svcwallet, which did not record its wallet, so it is not used beside a signing key; run svcwallet auth login --env local again to keep one that records it.")
	})
}

// TestLoginNamesOnlyKeysThatAct: enter with no API key names ctrl+d only
// where it fills the demo key in (an environment with one, the sandbox's).
func TestLoginNamesOnlyKeysThatAct(t *testing.T) {
	for _, demo := range []bool{true, false} {
		app, _ := screentest.LoggedInApp(t)
		if !demo {
			app.Targets[0].Demo = nil
		}
		l := New(app).(*loginScreen)
		l.SetSize(120, 40)
		screentest.Drive(l, l.Init())
		screentest.Press(l, "shift+tab") // the method
		screentest.Press(l, "enter")
		if keys := screentest.NamedKeys(l.View()); demo != slices.Contains(keys, "ctrl+d") {
			t.Errorf("demo key %v: the refusal names %v:\n%s", demo, keys, ansi.Strip(l.View()))
		}
		screentest.RequireNamedKeysAct(t, fmt.Sprintf("demo key %v", demo), l.View(), func(k string) bool { return screentest.Offers(l.KeyMap(), k) })
	}
}

// TestSecretClearedSaysTheField: a recovery phrase pasted into the API key
// or the keystore file field is cleared saying what the field wants
// instead (kit.SecretCleared), the next step.
func TestSecretClearedSaysTheField(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	l := New(app).(*loginScreen)
	screentest.RequireSecretClearedSays(t, "API key", l.apiKey.Input, "the API key")
	screentest.RequireSecretClearedSays(t, "keystore file", l.path.Input, "the keystore file's path")
}
