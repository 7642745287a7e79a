// Package screentest is what the screens' tests share: an in-process
// sandbox behind an App, a whole console driven through its root model, a
// status rig on a fake clock, a stand-in home screen, and helpers for keys,
// commands, timers and frames. Tests only import it.
package screentest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// LoggedInApp is an App logged in with the demo API key on a fresh sandbox,
// with a clock the test moves and a journal of its own.
func LoggedInApp(t testing.TB) (*kit.App, *time.Time) {
	t.Helper()
	now := Now
	clock := func() time.Time { return now }
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	app := NewApp(srv, true, clock, func(string) string { return "" }, t.TempDir())
	OpenJournal(t, app)
	LogIn(t, app)
	return app, &now
}

// OpenJournal gives app a journal of its own, in a temporary directory.
func OpenJournal(t testing.TB, app *kit.App) {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	app.Target.Journal = j
	for i := range app.Targets {
		app.Targets[i].Journal = j
	}
}

// LogIn logs app's client in with the demo API key, as the login screen
// would.
func LogIn(t testing.TB, app *kit.App) {
	t.Helper()
	cx, cancel := kit.Call(context.Background())
	defer cancel()
	if _, err := app.Client().Login(cx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
}

// Arbitrum is the sandbox's ARBITRUM withdrawal route.
var Arbitrum = exchange.WithdrawalRoute{Chain: "ARBITRUM", ChainID: "42161", ChainType: exchange.ChainTypeEVM, TokensOut: []string{"USDT", "USDC"}}

// Now is the fixed clock of the console tests: sandbox, client and
// top bar all read it, so session times in goldens never move.
var Now = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// shownSandboxURL is what the login screen shows for the sandbox in tests;
// the real listener has a random port.
const shownSandboxURL = "http://127.0.0.1:8700"

// StrangerKey is a well-known development key registered nowhere in the
// sandbox (Hardhat account #9): its wallet login is refused.
const StrangerKey = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6"

// NewApp is the App main would build for the embedded sandbox, with the
// sandbox shown at a fixed address and every clock fixed.
func NewApp(srv *sandbox.Server, dark bool, clock func() time.Time, getenv func(string) string, keystoreDir string) *kit.App {
	real := config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
	sb := target.Target{
		Env:    config.SandboxEnvironment(shownSandboxURL, sandbox.DefaultChainID),
		Client: exchange.New(real, exchange.Options{Now: clock}),
		Demo:   Demo(),
	}
	return &kit.App{Deps: kit.Deps{Common: tui.NewCommon(dark, clock), Targets: []target.Target{sb}, KeystoreDir: keystoreDir, Getenv: getenv,
		Makers: kit.Makers{Home: NewHome}, Writes: &kit.Writes{}, Sends: &kit.Sends{}},
		Session: kit.Session{Target: sb},
		Hooks:   kit.Hooks{LoadKeystore: func(path, pass string) (signer.Key, error) { return signer.LoadKeystoreKey(path, pass) }}}
}

// Demo is the embedded sandbox's demo data as the console is given it.
func Demo() *target.Demo {
	d := &target.Demo{APIKey: sandbox.DemoAPIKey, PrivateKey: sandbox.DemoPrivateKey, Builder: sandbox.BuilderAddress}
	for _, p := range sandbox.DemoAddressBook {
		d.AddressBook = append(d.AddressBook, target.Payee(p))
	}
	return d
}
