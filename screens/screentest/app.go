package screentest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/signer"
	"svcwallet/tui"
)

// LoggedInApp is a logged-in App on a sandbox, with a clock the test moves and a
// journal of its own.
func LoggedInApp(t testing.TB) (*kit.App, *time.Time) {
	t.Helper()
	return LoggedInAppWith(t, sandbox.Options{}, map[string]string{})
}

// LoggedInAppWith is LoggedInApp on a sandbox tuned by sb (its clock is
// replaced), with env as the process environment the screens see.
func LoggedInAppWith(t testing.TB, sb sandbox.Options, env map[string]string) (*kit.App, *time.Time) {
	t.Helper()
	now := Now
	clock := func() time.Time { return now }
	sb.Now = clock
	srv, err := sandbox.Start("127.0.0.1:0", sb)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	app := NewApp(srv, true, clock, func(k string) string { return env[k] }, t.TempDir())
	j, err := service.OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	app.Target.Journal = j
	cx, cancel := kit.Call(context.Background())
	defer cancel()
	if _, err := app.Client().Login(cx, service.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	return app, &now
}

// Arbitrum is the sandbox's ARBITRUM withdrawal route.
var Arbitrum = service.WithdrawalRoute{Chain: "ARBITRUM", ChainID: "42161", ChainType: service.ChainTypeEVM, TokensOut: []string{"USDT", "USDC"}}

// Now is the fixed clock of the console tests: sandbox, client and
// status bar all read it, so session times in goldens never move.
var Now = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// ShownSandboxURL is what the login screen shows for the sandbox in tests;
// the real listener has a random port.
const ShownSandboxURL = "http://127.0.0.1:8700"

// StrangerKey is a well-known development key registered nowhere in the
// sandbox (Hardhat account #9): its wallet login is refused.
const StrangerKey = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6"

// NewApp is the App main would build for the embedded sandbox, with the
// sandbox shown at a fixed address and every clock fixed.
func NewApp(srv *sandbox.Server, dark bool, clock func() time.Time, getenv func(string) string, keystoreDir string) *kit.App {
	real := service.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
	target := kit.Target{
		Env:    service.SandboxEnvironment(ShownSandboxURL, sandbox.DefaultChainID),
		Client: service.New(real, service.Options{Now: clock}),
		Demo:   &kit.Demo{APIKey: sandbox.DemoAPIKey, PrivateKey: sandbox.DemoPrivateKey},
	}
	return &kit.App{Deps: kit.Deps{Common: tui.NewCommon(dark, clock), Targets: []kit.Target{target}, KeystoreDir: keystoreDir, Getenv: getenv,
		Makers: kit.Makers{Home: NewHome}},
		Session: kit.Session{Target: target},
		Hooks:   kit.Hooks{LoadKeystore: func(path, pass string) (signer.Key, error) { return signer.LoadKeystoreKey(path, pass) }}}
}
