package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/session"
	"github.com/svcwallet/svcwallet/signer"
)

// TestAPIKeyGivenComesBeforeTheKeptSession: $SVCWALLET_API_KEY holding
// another account's key than the session auth login kept logs in with it,
// as the variable promises ("before a stored one"): deposit printed the
// kept account's deposit addresses, exit 0, for a key whose account has
// none, so what a script deposited went to another account. The kept
// session stays kept, and serves again once the variable is unset; the
// very key kept with it uses it as before.
func TestAPIKeyGivenComesBeforeTheKeptSession(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	w.logIn(sandbox.DemoAPIKey+"\n", nil, "--with-api-key")
	other := map[string]string{exchange.APIKeyEnvVar: sandbox.NoChainAPIKey}
	if r := w.run("", other, "deposit", "--json"); r.code != exitFailed || !strings.Contains(r.stdout, "no chain account address") || strings.Contains(r.stdout, "deposit_address") {
		t.Errorf("deposit with another account's key given: exit %d, want that account's refusal\n%s%s", r.code, r.stdout, r.stderr)
	}
	same := map[string]string{exchange.APIKeyEnvVar: sandbox.DemoAPIKey}
	for _, vars := range []map[string]string{same, nil} {
		if r := w.run("", vars, "deposit", "--json"); r.code != 0 || !strings.Contains(r.stdout, "deposit_address") {
			t.Errorf("deposit with %v: exit %d\n%s%s", vars, r.code, r.stdout, r.stderr)
		}
	}
	if r := w.run("", nil, "auth", "status"); !strings.Contains(r.stdout, sandbox.DemoAccountID) {
		t.Errorf("the kept session was replaced:\n%s", r.stdout)
	}
}

// TestEndedSessionKeptOnlyForItsAccount: a login made while the kept
// session has ended is kept in its place (a renewal) only when it is the
// same account's: one by another account's $SVCWALLET_API_KEY, for one
// script, became the session every later command acted as, without a key
// given or a word.
func TestEndedSessionKeptOnlyForItsAccount(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	w.logIn(sandbox.DemoAPIKey+"\n", nil, "--with-api-key")
	cfg, err := config.LoadConfig(w.config, true)
	if err != nil {
		t.Fatal(err)
	}
	e, err := cfg.Lookup("local")
	if err != nil {
		t.Fatal(err)
	}
	store := (&app{}).sessionStore()
	end := func() {
		l, err := store.Load(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Refused(e, l.Kept(), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	end()
	w.run("", map[string]string{exchange.APIKeyEnvVar: sandbox.NoChainAPIKey}, "status", "q-1")
	var expired *session.ExpiredError
	if _, err := store.Load(e); !errors.As(err, &expired) || expired.Entry.AccountID != sandbox.DemoAccountID {
		t.Fatalf("after another account's login, the kept session is %v", err)
	}
	// The same account's login renews it, as before.
	if r := w.run("", map[string]string{exchange.APIKeyEnvVar: sandbox.DemoAPIKey}, "status", "q-1"); r.code != exitNotFound {
		t.Fatalf("status: exit %d\n%s", r.code, r.stderr)
	}
	if l, err := store.Load(e); err != nil || l.AccountID != sandbox.DemoAccountID {
		t.Fatalf("the same account's login was not kept: %+v, %v", l.Entry, err)
	}
}

// TestSigningKeyOfAnotherWalletComesBeforeTheKeptSession: a signing key
// given for another wallet than the one a kept wallet session logged in
// with logs in with itself: deposit printed the kept account's addresses
// to a script whose $SVCWALLET_PRIVATE_KEY was another account's. The
// same wallet's key, or none, uses the kept session; an API key's session
// serves beside any signing key, the common setup. The kept wallet named
// as the account beside another wallet's key is not that key's address.
func TestSigningKeyOfAnotherWalletComesBeforeTheKeptSession(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	demo := map[string]string{signer.KeyEnvVar: sandbox.DemoPrivateKey}
	other := map[string]string{signer.KeyEnvVar: sandbox.NoChainPrivateKey}
	w.logIn("", demo, "--wallet")
	cfg, err := config.LoadConfig(w.config, true)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := cfg.Lookup("local")
	if l, err := (&app{}).sessionStore().Load(e); err != nil || l.Wallet != sandbox.DemoAddress {
		t.Fatalf("the wallet session kept %q (%v), not the wallet that logged in", l.Wallet, err)
	}
	if r := w.run("", other, "deposit", "--json"); r.code != exitFailed || !strings.Contains(r.stdout, "no chain account address") || strings.Contains(r.stdout, "deposit_address") {
		t.Errorf("deposit with another wallet's key given: exit %d, want that account's refusal\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, vars := range []map[string]string{demo, nil} {
		if r := w.run("", vars, "deposit", "--json"); r.code != 0 || !strings.Contains(r.stdout, "deposit_address") {
			t.Errorf("deposit with %v: exit %d\n%s%s", vars, r.code, r.stdout, r.stderr)
		}
	}
	// The account named is not the key's: the key given is another wallet's.
	if r := w.run("", other, "deposit", "--json", "--account", sandbox.DemoAddress); r.code == 0 || strings.Contains(r.stdout, "deposit_address") {
		t.Errorf("deposit with another wallet's key and the kept wallet named: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := w.run("", nil, "auth", "status"); !strings.Contains(r.stdout, sandbox.DemoAccountID) {
		t.Errorf("the kept session was replaced:\n%s", r.stdout)
	}
	w.logIn(sandbox.DemoAPIKey+"\n", nil, "--with-api-key")
	if r := w.run("", other, "deposit", "--json"); r.code != 0 || !strings.Contains(r.stdout, "deposit_address") {
		t.Errorf("an API key's session beside a signing key: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestNoSigningKeyLeavesTheKeptWalletSession: an environment whose signer
// gives no key to sign with here, "env" run without $SVCWALLET_PRIVATE_KEY
// or "offline" (signed on another device), is given no signing key, so the
// wallet session auth login kept serves it: "env" was taken for a key of
// unknown address, and deposit logged in instead and failed for want of
// the variable.
func TestNoSigningKeyLeavesTheKeptWalletSession(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	demo := map[string]string{signer.KeyEnvVar: sandbox.DemoPrivateKey}
	w.logIn("", demo, "--wallet")
	cfg, err := os.ReadFile(w.config)
	if err != nil {
		t.Fatal(err)
	}
	for _, source := range []string{"env", "offline"} {
		if err := os.WriteFile(w.config, fmt.Appendf(cfg, "signer = %q\n", source), 0o600); err != nil {
			t.Fatal(err)
		}
		if r := w.run("", nil, "deposit", "--json"); r.code != 0 || !strings.Contains(r.stdout, "deposit_address") {
			t.Errorf("deposit with signer = %q and no key: exit %d\n%s%s", source, r.code, r.stdout, r.stderr)
		}
	}
}

// TestUnservedWalletSessionSaysWhy: a wallet session kept by an earlier
// version, which did not record its wallet, does not serve beside a
// signing key, and neither does one beside a key whose address is known
// only once opened (a signing command without account); each is said once,
// with what to do: the command logged in with the key instead, silently.
func TestUnservedWalletSessionSaysWhy(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	demo := map[string]string{signer.KeyEnvVar: sandbox.DemoPrivateKey}
	w.logIn("", demo, "--wallet")
	cfg, err := os.ReadFile(w.config)
	if err != nil {
		t.Fatal(err)
	}
	// A signing command whose account is not named: its address is known
	// only once it signs.
	if err := os.WriteFile(w.config, fmt.Appendf(cfg, "signer = \"command\"\nsign_command = \"no-such-signing-command\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := w.run("", nil, "deposit", "--json")
	if strings.Count(r.stderr, "svcwallet: warning: the wallet session kept for local is not used: the key source names no account, so it cannot be told to be its wallet, "+sandbox.DemoAddress+"; to use it") != 1 ||
		!strings.Contains(r.stderr, "to use it, name the key's account: --account "+sandbox.DemoAddress+`, or account = "`+sandbox.DemoAddress+`" in environment local's config`) {
		t.Errorf("a key of unknown address beside the kept wallet session: exit %d\n%s", r.code, r.stderr)
	}
	if err := os.WriteFile(w.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}

	// The session as an earlier version kept it: no wallet recorded.
	w.keptByAnEarlierVersion()
	r = w.run("", demo, "deposit", "--json")
	if r.code != 0 || strings.Count(r.stderr, "svcwallet: warning: the wallet session kept for local was made by an earlier version of svcwallet, which did not record its wallet, so it is not used beside a signing key") != 1 ||
		!strings.Contains(r.stderr, "run svcwallet auth login --env local --config "+w.config+" again") {
		t.Errorf("a kept session without its wallet beside a signing key: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.run("", nil, "deposit", "--json"); r.code != 0 || strings.Contains(r.stderr, "warning") {
		t.Errorf("the kept session without a signing key: exit %d\n%s", r.code, r.stderr)
	}
}

// keptByAnEarlierVersion makes the wallet session kept for local one an
// earlier version kept: without its wallet.
func (w *authWorld) keptByAnEarlierVersion() {
	w.t.Helper()
	c, err := config.LoadConfig(w.config, true)
	if err != nil {
		w.t.Fatal(err)
	}
	e, _ := c.Lookup("local")
	store := (&app{}).sessionStore()
	l, err := store.Load(e)
	if err != nil {
		w.t.Fatal(err)
	}
	k := l.Kept()
	k.Wallet = ""
	if _, err := store.Save(e, k, "", l.Where == session.InFile); err != nil {
		w.t.Fatal(err)
	}
}

// TestConsoleLoginIsToldWhyTheKeptSessionWasLeft: the console's login is
// handed why the kept wallet session was left aside (target.Unkept, from
// keptOnly), said once on stderr too; only the chosen environment's
// target carries it. Its step names no flag (the console takes none) and
// is short: the login is read at 60 columns.
func TestConsoleLoginIsToldWhyTheKeptSessionWasLeft(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	demo := map[string]string{signer.KeyEnvVar: sandbox.DemoPrivateKey}
	w.logIn("", demo, "--wallet")
	cfg, err := os.ReadFile(w.config)
	if err != nil {
		t.Fatal(err)
	}
	console := func(vars map[string]string) (unkept string, stderr string) {
		t.Helper()
		c, err := config.LoadConfig(w.config, true)
		if err != nil {
			t.Fatal(err)
		}
		var errOut strings.Builder
		a := newApp(CLIEnv{Stdin: strings.NewReader(""), Stdout: &strings.Builder{}, Stderr: &errOut, Getenv: func(k string) string { return vars[k] }})
		a.configPath = w.config
		targets, closeAll, err := consoleTargets(c, "local", nil, a.keptOnly)
		if err != nil {
			t.Fatal(err)
		}
		defer closeAll()
		if len(targets) != 2 || targets[0].Kept || targets[1].Unkept != "" {
			var said []string // never the targets whole: a client holds its session
			for _, tg := range targets {
				said = append(said, fmt.Sprintf("%s kept %v unkept %q", tg.Env.Name, tg.Kept, tg.Unkept))
			}
			t.Fatalf("the console's targets: %s", strings.Join(said, "; "))
		}
		return targets[0].Unkept, errOut.String()
	}

	if err := os.WriteFile(w.config, fmt.Appendf(cfg, "signer = \"command\"\nsign_command = \"no-such-signing-command\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	unkept, stderr := console(nil)
	const named = "the wallet session kept for local is not used: the key source names no account, so it cannot be told to be its wallet, " +
		sandbox.DemoAddress + "; to use it, set account to that address in environment local's config"
	if unkept != named || strings.Count(stderr, named) != 1 {
		t.Errorf("beside a signing command without its account, the login is told %q; stderr %q", unkept, stderr)
	}
	if err := os.WriteFile(w.config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}

	w.keptByAnEarlierVersion()
	unkept, stderr = console(demo)
	const earlier = "the wallet session kept for local was made by an earlier version of svcwallet, which did not record its wallet, so it is not used beside a signing key; run svcwallet auth login"
	if !strings.HasPrefix(unkept, earlier) || strings.Count(stderr, earlier) != 1 {
		t.Errorf("beside a session kept by an earlier version, the login is told %q; stderr %q", unkept, stderr)
	}
}

// TestUnservedWalletSessionSaysTheConfigClean: the step beside a kept
// wallet session left aside repeats --config; a path holding an escape or
// a bidi override is left out of it, saying so (safetext.Command), on
// stderr and so on the console's login: cleaned, it named another file.
func TestUnservedWalletSessionSaysTheConfigClean(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	dir := filepath.Join(t.TempDir(), "cfg\x1b[31m\u202ered")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	w.config = filepath.Join(dir, "config.toml")
	w.point(srv.URL)
	demo := map[string]string{signer.KeyEnvVar: sandbox.DemoPrivateKey}
	w.logIn("", demo, "--wallet")
	w.keptByAnEarlierVersion()
	r := w.run("", demo, "deposit", "--json")
	if r.code != 0 || !strings.Contains(r.stderr, "run svcwallet auth login --env local"+safetext.LeftOut("--config")+" again") {
		t.Fatalf("a kept session without its wallet beside a signing key: exit %d\n%q", r.code, r.stderr)
	}
	if strings.ContainsAny(r.stderr, "\x1b\u202e") {
		t.Errorf("the config's path said raw: %q", r.stderr)
	}
}
