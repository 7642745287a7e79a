package login

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
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
