package login

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

func TestMain(m *testing.M) {
	os.Exit(exchangetest.RunTests(m))
}

// signerConsole is a console at the login, its sandbox environment's key
// settings changed by set.
func signerConsole(t *testing.T, set func(e *config.Environment)) *screentest.Console {
	t.Helper()
	return screentest.NewConsole(t, 120, 40, screentest.ConsoleOpts{Start: func(app *kit.App) tui.Screen {
		set(&app.Targets[0].Env)
		app.Target = app.Targets[0]
		return New(app)
	}})
}

// TestLoginListsClefAccounts (issue 20 item 5): with signer = "clef:…" the
// login asks clef for its accounts (in a Cmd), starts on clef with the
// config's account picked, and logs in by wallet with clef's key; the
// reviews will name clef.
func TestLoginListsClefAccounts(t *testing.T) {
	fake := exchangetest.NewFakeClef(t)
	demo, other := exchangetest.KeyAddress(exchangetest.DemoKeyHex), exchangetest.KeyAddress(exchangetest.OtherKeyHex)
	fake.Accounts = []common.Address{other, demo}
	c := signerConsole(t, func(e *config.Environment) { e.Signer, e.Account = "clef:"+fake.URL, demo.Hex() })
	c.UntilShows("Key source", "clef", "Clef account", demo.Hex(), "account_list of clef at "+fake.URL)
	c.Press("enter")
	c.UntilShows(screentest.HomeView)
	if c.App.Signer == nil || c.App.Signer.Address() != demo || c.App.SignerFrom != "clef at "+fake.URL {
		t.Errorf("logged in with %v from %q", c.App.Signer, c.App.SignerFrom)
	}
	if got := fake.Signed(); len(got) != 1 || got[0].PrimaryType != "WalletLogin" {
		t.Errorf("clef signed %v", got)
	}
}

// TestLoginClefUnreachable: clef not running is said under its field, and
// enter asks again rather than logging in.
func TestLoginClefUnreachable(t *testing.T) {
	c := signerConsole(t, func(e *config.Environment) { e.Signer = "clef:http://127.0.0.1:1" })
	c.UntilShows("cannot be reached (is clef running?)")
	c.Press("enter")
	c.UntilShows("asking again")
	if c.App.Signer != nil {
		t.Error("logged in without clef")
	}
}

// TestLoginWithSigningCommand: the configured command with the config's
// account logs in; the source is named by the command's leading words
// only; a refusal is one clean line that repeats nothing the command
// printed of a key; esc cancels a login waiting for the command.
func TestLoginWithSigningCommand(t *testing.T) {
	demo := exchangetest.KeyAddress(exchangetest.DemoKeyHex)
	command := func(mode string) *screentest.Console {
		return signerConsole(t, func(e *config.Environment) {
			e.Signer, e.Account, e.SignCommand = "command", demo.Hex(), exchangetest.FakeSignCommand(mode, "{file}")
		})
	}
	c := command("sign")
	c.UntilShows("signing command", "command: login.test …", "account "+demo.Hex())
	c.Press("enter")
	c.UntilShows(screentest.HomeView)
	if c.App.Signer == nil || c.App.Signer.Address() != demo || c.App.SignerFrom != "command: login.test …" {
		t.Errorf("logged in with %v from %q", c.App.Signer, c.App.SignerFrom)
	}

	c = command("refuse")
	c.Press("enter")
	c.UntilShows("Login failed")
	view := c.Plain()
	if !strings.Contains(screentest.OneLine(view), "user rejected the request") || screentest.ShowsKeyPiece(view) || strings.Contains(c.View(), "\x1b[31m") {
		t.Errorf("the refusal is not one clean line:\n%s", view)
	}

	c = command("hang")
	c.Press("enter")
	c.UntilShows("waiting for the signing command login.test…", "esc cancel the login")
	c.Press("esc")
	c.UntilShows("Login failed", "cancelled")
	if c.App.Signer != nil {
		t.Error("a cancelled login logged in")
	}
}

// TestLoginCommandSecretArgWarned: a signing command giving its program
// a password as an argument is warned of as the login runs it (once a
// run: signer.ArgumentWarning), naming the program and the option, never
// the value.
func TestLoginCommandSecretArgWarned(t *testing.T) {
	demo := exchangetest.KeyAddress(exchangetest.DemoKeyHex)
	c := signerConsole(t, func(e *config.Environment) {
		e.Signer, e.Account, e.SignCommand = "command", demo.Hex(), exchangetest.FakeSignCommand("sign", "{file}", "--password", "pw-not-shown")
	})
	c.UntilShows("signing command")
	c.Press("enter")
	c.UntilSays("Warning: the signing command, which runs " + safetext.Shown(os.Args[0]) + ", gives --password on a command line")
	if strings.Contains(c.Plain(), "pw-not-shown") {
		t.Errorf("the password is shown:\n%s", c.Plain())
	}
	// Said once a run: the same command readied again is not warned of.
	op, err := c.App.SignerOpening(c.App.Target.Env, demo).Open(context.Background(), signer.Source{Kind: signer.SourceCommand})
	if err != nil {
		t.Fatal(err)
	}
	if k, err := op.Load(); err != nil || c.App.ArgumentWarning.Due(k) != "" {
		t.Errorf("the warning is due again (%v)", err)
	}
}

// TestLoginCommandNeedsAccount: a signing command without the config's
// account says what to set, and does not run.
func TestLoginCommandNeedsAccount(t *testing.T) {
	c := signerConsole(t, func(e *config.Environment) {
		e.Signer, e.SignCommand = "command", exchangetest.FakeSignCommand("sign", "{file}")
	})
	c.UntilShows(`set account = "0x…" beside sign_command`)
	c.Press("enter")
	c.UntilShows("Key source")
	if c.App.Signer != nil {
		t.Error("logged in without an account")
	}
}

// TestCommandNameShowsNoArgument: a signing command is named by its
// program alone; no other word, which may be a token, a password, a flag's
// value or a mnemonic, reaches the screen.
func TestCommandNameShowsNoArgument(t *testing.T) {
	for line, want := range map[string]string{
		"cast wallet sign --private-key 0xabc --data --from-file {file}": "command: cast …",
		"vault-sign s3cr3tT0ken":                        "command: vault-sign …",
		"signer PASSWORD=hunter2":                       "command: signer …",
		`/usr/local/bin/kms-sign "word word word word"`: "command: kms-sign …",
		"ledger-sign":                                   "command: ledger-sign",
	} {
		if got := commandName(line); got != want {
			t.Errorf("commandName(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestLoginKeepsTheKindAcrossEnvironments: the key source chosen is kept
// when the environment changes, where offered, else the keystore; never the
// source that sits at the same place in the new environment's list (there,
// a signing command that would run unasked).
func TestLoginKeepsTheKindAcrossEnvironments(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	other := app.Targets[0]
	other.Env.Name, other.Demo = "other", nil
	other.Env.Signer, other.Env.Account, other.Env.SignCommand = "command", exchangetest.KeyAddress(exchangetest.DemoKeyHex).Hex(), "signer-cmd {file}"
	app.Targets = append(app.Targets, other)
	l := New(app).(*loginScreen)
	l.env = 0
	l.choose(sourceDemo)
	l.changed(l.sourceField)
	l.env = 1
	l.changed(l.envField)
	if got := l.kind(); got != sourceKeystore {
		t.Fatalf("after the environment changed the key source is kind %d, want the keystore (%d)", got, sourceKeystore)
	}
	l.choose(sourceEnv)
	l.changed(l.sourceField)
	l.env = 0
	l.changed(l.envField)
	if got := l.kind(); got != sourceEnv {
		t.Fatalf("the environment key was not kept: kind %d", got)
	}
}

// TestLoginEscOfferedOnce: while a login waits for a signature esc is
// offered; once pressed it is not offered again, and the screen says it is
// cancelling.
func TestLoginEscOfferedOnce(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	l := New(app).(*loginScreen)
	l.SetSize(120, 40)
	cancelled := false
	l.busy, l.waiting, l.cancel = true, "approval in clef at http://127.0.0.1:8550", func() { cancelled = true }
	if !screentest.Offers(l.KeyMap(), "esc") {
		t.Fatal("esc is not offered while the login waits")
	}
	screentest.Press(l, "esc")
	if !cancelled || screentest.Offers(l.KeyMap(), "esc") || !strings.Contains(l.View(), "Cancelling the wait for approval in clef") {
		t.Fatalf("after esc: cancelled %v, offers %v:\n%s", cancelled, l.KeyMap().ShortHelp(), l.View())
	}
}

// TestLoginCommandFromTheVariableCheckedFirst: a signing command from
// $SVCWALLET_SIGN_COMMAND, which no config load checked, is checked before
// the login names its wait ("waiting for the signing command NAME"): a
// bidi override in it was drawn raw, reordering the line, before the
// refusal came.
func TestLoginCommandFromTheVariableCheckedFirst(t *testing.T) {
	demo := exchangetest.KeyAddress(exchangetest.DemoKeyHex)
	env := map[string]string{signer.SignCommandEnvVar: "/opt/gis\u202ehs.sh {file}"}
	c := screentest.NewConsole(t, 120, 40, screentest.ConsoleOpts{Env: env, Start: func(app *kit.App) tui.Screen {
		app.Targets[0].Env.Signer, app.Targets[0].Env.Account = "command", demo.Hex()
		app.Target = app.Targets[0]
		return New(app)
	}})
	c.UntilShows("signing command", "U+202E at position 9")
	c.Press("enter")
	if strings.Contains(c.View(), "\u202e") {
		t.Fatalf("the override drawn raw:\n%s", c.Plain())
	}
	c.UntilShows("U+202E at position 9")
	if strings.Contains(c.View(), "\u202e") || c.App.Signer != nil {
		t.Fatalf("logged in with %v, or the override drawn raw:\n%s", c.App.Signer, c.Plain())
	}
}

// TestLoginCommandRefusedBeforeEnter: the key source's hint does not name
// a signing command enter would refuse ("command: gishs.sh …", cleaned,
// as if it would run): it says the refusal at once.
func TestLoginCommandRefusedBeforeEnter(t *testing.T) {
	demo := exchangetest.KeyAddress(exchangetest.DemoKeyHex)
	env := map[string]string{signer.SignCommandEnvVar: "/opt/gis\u202ehs.sh {file}"}
	c := screentest.NewConsole(t, 120, 40, screentest.ConsoleOpts{Env: env, Start: func(app *kit.App) tui.Screen {
		app.Targets[0].Env.Signer, app.Targets[0].Env.Account = "command", demo.Hex()
		app.Target = app.Targets[0]
		return New(app)
	}})
	c.UntilShows("the signing command: it holds U+202E at position 9, a control or invisible character: remove it")
	if v := c.Plain(); strings.Contains(v, "command: gis") || strings.Contains(v, "account "+demo.Hex()) {
		t.Fatalf("the refused command named as if it would run:\n%s", v)
	}
}
