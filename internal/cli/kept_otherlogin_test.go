package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/session"
)

// TestALoginByAnotherKeyLeavesTheKeptSession: the console opens on the
// session auth login kept (keptOnly), and the builder result screen's l
// logs that client in with the builder's new API key, of the same
// account. That session is the console run's alone: the kept one stays,
// with the user's own API key beside it, so later commands and auth
// status are still the user's login, not a session the builder ends by
// revoking its key.
func TestALoginByAnotherKeyLeavesTheKeptSession(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	builderKey := builderAPIKey(t, w)
	w.logIn(sandbox.DemoAPIKey+"\n", nil, "--with-api-key")

	// The console's client, as console.go opens it (openTargets → keptOnly).
	a, e := w.app()
	client, _ := a.keptOnly(e, exchange.Options{})
	if client == nil {
		t.Fatal("the console does not open on the kept session")
	}
	before, err := a.sessionStore().Load(e)
	if err != nil {
		t.Fatal(err)
	}
	s, err := client.Login(context.Background(), exchange.APIKey(builderKey))
	if err != nil || !strings.HasPrefix(s.Location, "builder:") {
		t.Fatalf("log in with the builder's key: %+v, %v", s, err)
	}
	after, err := a.sessionStore().Load(e)
	if err != nil {
		t.Fatal(err)
	}
	if after.Cookie != before.Cookie || after.APIKey != sandbox.DemoAPIKey {
		t.Errorf("the kept session changed with a login by the builder's key: %s session kept, API key kept beside it the demo key: %v", after.Method, after.APIKey == sandbox.DemoAPIKey)
	}
	status := w.run("", nil, "auth", "status", "--env", "local")
	if strings.Contains(status.stdout, "builder:") {
		t.Errorf("auth status names the builder key's session as the kept one:\n%s", status.stdout)
	}
}

// TestAConsoleLoginAfterLogOutIsNotKept: the console logged out (L) on
// the kept session and logged in again, with the very key auth login
// kept: that login is this run's too, as every console login is. The
// kept session stays, and the next command opens on it.
func TestAConsoleLoginAfterLogOutIsNotKept(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	w.logIn(sandbox.DemoAPIKey+"\n", nil, "--with-api-key", "--insecure-storage")
	a, e := w.app()
	client, _ := a.keptOnly(e, exchange.Options{})
	if client == nil {
		t.Fatal("the console does not open on the kept session")
	}
	before, _ := a.sessionStore().Load(e)
	client.Logout()
	if _, err := client.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	if after, err := a.sessionStore().Load(e); err != nil || after.Cookie != before.Cookie {
		t.Errorf("the console's login after a log out was kept in the kept session's place (%v)", err)
	}
}

// TestEndedSessionNotKeptForAnotherKey: once the kept session ended, a
// command given the builder's new API key in $SVCWALLET_API_KEY (of the
// same account) logs in with it for that command alone: its session was
// kept in the ended one's place beside the user's own API key, so auth
// status and every later command took it for the user's login. The key
// kept, given, is kept as before (TestEndedSessionKeptOnlyForItsAccount).
func TestEndedSessionNotKeptForAnotherKey(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	builderKey := builderAPIKey(t, w)
	w.logIn(sandbox.DemoAPIKey+"\n", nil, "--with-api-key")
	a, e := w.app()
	l, err := a.sessionStore().Load(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.sessionStore().Refused(e, l.Kept(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if r := w.run("", map[string]string{exchange.APIKeyEnvVar: builderKey}, "status", "q-1"); r.code != exitNotFound {
		t.Fatalf("status with the builder's key: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := a.sessionStore().Load(e); !errors.As(err, new(*session.ExpiredError)) {
		t.Errorf("the builder key's login was kept in the ended session's place (%v)", err)
	}
}

// builderAPIKey authorizes the sandbox's builder with an API key of the
// demo account, as the console's builder flow does, and returns the key.
func builderAPIKey(t *testing.T, w *authWorld) string {
	t.Helper()
	r := w.run("", demoKeyVars, "builder", "authorize", "--env", "local", "--builder", sandbox.BuilderAddress,
		"--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--yes",
		"--api-key-signer", sandbox.NoChainAddress, "--permissions", "trade", "--label", "bot")
	if r.code != 0 {
		t.Fatalf("builder authorize: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	return bcliField(t, r.stdout, "API key")
}
