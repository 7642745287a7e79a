package login

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/session"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// keystoreLogin opens a console, picks wallet login from a keystore file,
// types path and presses enter; it returns the console to look at.
func keystoreLogin(t *testing.T, path string) *screentest.Console {
	t.Helper()
	c := screentest.NewConsole(t, 100, 30, screentest.ConsoleOpts{Start: New})
	c.Press("shift+tab", "right", "tab", "tab") // method: wallet; source: keystore; to the path
	c.TypeText(path)
	c.Press("enter")
	return c
}

// TestLoginKeystoreErrors: a directory, a non-JSON file and a missing file
// are each told apart in words, and a leading ~/ is the home directory.
// The path is repeated as safetext.Quoted shortens it.
func TestLoginKeystoreErrors(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("directory", func(t *testing.T) {
		c := keystoreLogin(t, home)
		c.UntilSays(safetext.Quoted(home) + " is a directory: pick a key file in it, e.g. from `svcwallet key list`")
	})
	t.Run("not JSON, from ~/", func(t *testing.T) {
		c := keystoreLogin(t, "~/notes.txt")
		c.UntilSays(safetext.Quoted(filepath.Join(home, "notes.txt")) + " is not a valid keystore file: it is not keystore V3 JSON")
	})
	t.Run("missing", func(t *testing.T) {
		c := keystoreLogin(t, "~/nope.json")
		c.UntilSays("no keystore file at " + safetext.Quoted(filepath.Join(home, "nope.json")) + ": check the path")
	})
}

// TestLoginMethodSwitchClearsError: an error about one method goes when the
// user switches to the other.
func TestLoginMethodSwitchClearsError(t *testing.T) {
	c := keystoreLogin(t, t.TempDir())
	c.UntilShows("Login failed")
	c.Press("shift+tab", "shift+tab", "left") // back to the method; API key
	if v := c.Plain(); strings.Contains(v, "Login failed") || strings.Contains(v, "is a directory") {
		t.Fatalf("the wallet's error is still shown after switching to API key:\n%s", v)
	}
}

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

// TestLoginPicksKeystoreKeys (issue 12, choosing a key): the keystore's
// keys are a list (address, creation date, file name under it) instead of
// a path typed or pre-filled into a field; "another file…" brings the path
// field back (TestLoginStartsWhereTheKeyIs: which source is preselected).
func TestLoginPicksKeystoreKeys(t *testing.T) {
	lightScrypt(t)
	app, _ := screentest.LoggedInApp(t)
	var paths []string
	for _, k := range []string{sandbox.DemoPrivateKey, screentest.StrangerKey} {
		_, path, err := signer.ImportRawKey(app.KeystoreDir, k, "pw")
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	l := New(app).(*loginScreen)
	l.SetSize(120, 40)
	l.method = methodWallet
	l.form.Focus(l.sourceField)
	screentest.Press(l, "tab")
	if l.form.Focused() != l.keyPick || l.Inputting() {
		t.Fatalf("after the key source the focus is on %s, inputting %v", l.form.Focused().Label, l.Inputting())
	}
	view := ansi.Strip(l.View())
	created := time.Now().UTC().Format("2006-01-02")
	for _, want := range []string{"(•) " + sandbox.DemoAddress, created, filepath.Base(paths[0]), "( ) another file…"} {
		if !strings.Contains(view, want) {
			t.Errorf("the key list lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "Keystore file") || !screentest.Offers(l.KeyMap(), "left") {
		t.Errorf("a listed key still shows the path field, or ←/→ is not offered:\n%s", view)
	}
	screentest.Press(l, "right")
	if got := l.keys.path(""); got != paths[1] {
		t.Errorf("→ chose %s, want %s", got, paths[1])
	}
	screentest.Press(l, "right")
	if !strings.Contains(ansi.Strip(l.View()), "Keystore file") {
		t.Error("another file… does not show the path field")
	}
	screentest.Press(l, "tab")
	if l.form.Focused() != l.path || !l.Inputting() {
		t.Errorf("tab after another file… focuses %s", l.form.Focused().Label)
	}
}

// TestLoginStartsWhereTheKeyIs (issue 21 item 16): with a key source set
// up, the form starts on wallet login: an exported $SVCWALLET_PRIVATE_KEY
// is the source (enter logs in), a key in the keystore is picked and the
// method has the focus, its note saying which is chosen and how to change
// it (issue 35 item 13); an exported API key still wins, and with neither
// the API key field has it.
func TestLoginStartsWhereTheKeyIs(t *testing.T) {
	lightScrypt(t)
	app, _ := screentest.LoggedInApp(t)
	env := map[string]string{}
	app.Getenv = func(k string) string { return env[k] }
	start := func() *loginScreen {
		l := New(app).(*loginScreen)
		l.SetSize(120, 40)
		screentest.Drive(l, l.Init())
		return l
	}
	if l := start(); l.method != methodAPIKey || l.form.Focused() != l.apiKey {
		t.Errorf("with no key source: method %d, focus on %s", l.method, l.form.Focused().Label)
	}
	env[signer.KeyEnvVar] = sandbox.DemoPrivateKey
	l := start()
	if l.method != methodWallet || l.source != sourceEnv || l.form.Focused() != l.methodField {
		t.Errorf("with $%s set: method %d, source %d, focus on %s", signer.KeyEnvVar, l.method, l.source, l.form.Focused().Label)
	}
	if _, cmd := screentest.Press(l, "enter"); cmd == nil || !l.busy {
		t.Errorf("enter did not log in with $%s", signer.KeyEnvVar)
	}
	delete(env, signer.KeyEnvVar)
	if _, _, err := signer.ImportRawKey(app.KeystoreDir, sandbox.DemoPrivateKey, "pw"); err != nil {
		t.Fatal(err)
	}
	if l := start(); l.method != methodWallet || l.source != sourceKeystore || l.form.Focused() != l.methodField ||
		!strings.Contains(ansi.Strip(l.View()), "a wallet signature with the key source below; ←/→ for an API key") {
		t.Errorf("with a key in the keystore: method %d, source %d, focus on %s", l.method, l.source, l.form.Focused().Label)
	}
	env[exchange.APIKeyEnvVar] = sandbox.DemoAPIKey
	if l := start(); l.method != methodAPIKey || l.form.Focused() != l.apiKey {
		t.Errorf("with $%s exported: method %d, focus on %s", exchange.APIKeyEnvVar, l.method, l.form.Focused().Label)
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

// TestKeystorePathErrorShortensHex: a keystore path with a long run of hex
// digits, short of the 62 a key is written with so the field keeps it, is
// repeated in the error with at most 8 of them: it may be most of a key
// typed in the wrong field.
func TestKeystorePathErrorShortensHex(t *testing.T) {
	for _, digits := range []int{40, 61} {
		c := keystoreLogin(t, "/nonexistent/"+screentest.KeyHex[:digits]+".json")
		c.UntilShows("Login failed")
		v := c.Plain()
		block := v[strings.Index(v, "Login failed"):]
		block, _, _ = strings.Cut(block, "\n\n")
		if want := "no keystore file at /nonexistent/" + screentest.KeyHex[:8] + "….json: check the path"; !strings.Contains(screentest.OneLine(block), want) {
			t.Errorf("%d hex digits: the error does not say %q (shown here with hex runs cut):\n%s", digits, want, safetext.Quoted(block))
		}
		if screentest.ShowsKeyPiece(block) {
			t.Errorf("%d hex digits: the error repeats more than 8 of them in a row", digits)
		}
	}
	// A path the keystore's error names otherwise than typed (made
	// absolute, in a directory others can write) is shortened too.
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o775); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o775); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, screentest.KeyHex[:61]), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	c := keystoreLogin(t, "./"+screentest.KeyHex[:61])
	c.UntilShows("Login failed")
	if v := c.Plain(); screentest.ShowsKeyPiece(v[strings.Index(v, "Login failed"):]) {
		t.Error("a path named otherwise than typed: the error repeats more than 8 hex digits in a row")
	}
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

// lightScrypt makes the keys a test imports cheap to encrypt: where it
// only matters that the keystore holds a key.
func lightScrypt(t *testing.T) { exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP) }

// TestWrongPassphraseShortAddress: a wrong passphrase names the key by its
// address in the console's one short form (0xf39F…2266), not cut where the
// hex shortening of a typed path cuts it; a file listing no address is
// named by its file, that shortening kept.
func TestWrongPassphraseShortAddress(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	_, path, err := signer.ImportRawKey(dir, sandbox.DemoPrivateKey, "right horse")
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	delete(file, "address")
	noAddress := filepath.Join(dir, screentest.KeyHex[:40]+".json")
	if b, err = json.Marshal(file); err != nil || os.WriteFile(noAddress, b, 0o600) != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		path:      "Wrong passphrase for the keystore key of " + tui.ShortAddress(sandbox.DemoAddress) + ": type it again",
		noAddress: "Wrong passphrase for the keystore key in " + screentest.KeyHex[:8] + "….json: type it again",
	} {
		c := screentest.NewConsole(t, 100, 30, screentest.ConsoleOpts{Start: New})
		c.Press("shift+tab", "right", "tab", "tab") // method: wallet; source: keystore; to the path
		c.TypeText(p)
		c.Press("tab")
		c.TypeText("wrong horse")
		c.Press("enter")
		c.UntilSays(want)
		v := c.Plain()
		block, _, _ := strings.Cut(v[strings.Index(v, "Login failed"):], "\n\n")
		if screentest.ShowsKeyPiece(block) {
			t.Errorf("the error repeats more than 8 hex digits in a row:\n%s", safetext.Quoted(block))
		}
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
