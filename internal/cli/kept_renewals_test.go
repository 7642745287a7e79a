package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestTheConsolesKeptSessionStaysKeptAsItRenews: the console opens on the
// session auth login kept (keptOnly), and over a long run its API key
// renews it each time it lapses, or the service ends it (401): every
// renewal is kept, the second too, else the next command finds the first
// one ended and the user is logged out. Once l logs the console in with the builder's API key, that
// session's renewal is not kept: the user's renewed one stays, and auth
// status names it.
func TestTheConsolesKeptSessionStaysKeptAsItRenews(t *testing.T) {
	clock := exchangetest.NewFakeClock(time.Now().UTC())
	w, _ := newAuthWorld(t, sandbox.Options{SessionTTL: time.Hour, Now: clock.Now, MaxSessions: 1})
	builderKey := builderAPIKey(t, w)
	w.logIn(sandbox.DemoAPIKey+"\n", nil, "--with-api-key")

	a, e := w.app()
	client, _ := a.keptOnly(e, exchange.Options{Now: clock.Now})
	if client == nil {
		t.Fatal("the console does not open on the kept session")
	}
	ctx := context.Background()
	keptCookie := func() string {
		t.Helper()
		l, err := a.sessionStore().Load(e)
		if err != nil {
			t.Fatalf("the kept session: %v", err)
		}
		if l.APIKey != sandbox.DemoAPIKey {
			t.Errorf("the API key kept beside it is no longer the user's")
		}
		return l.Cookie
	}
	was := keptCookie()
	for i := 1; i <= 3; i++ {
		if i < 3 {
			clock.Advance(time.Hour)
		} else if _, err := exchange.New(e, exchange.Options{Now: clock.Now}).Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
			t.Fatal(err) // another login of the account: the service ends the console's session
		}
		if _, err := client.WithdrawalInfo(ctx); err != nil {
			t.Fatalf("renewal %d: %v", i, err)
		}
		now, _ := client.Kept()
		if kept := keptCookie(); now.Cookie == was || kept != now.Cookie {
			t.Fatalf("renewal %d of the kept session: renewed %v, kept %v", i, now.Cookie != was, kept == now.Cookie)
		}
		was = now.Cookie
	}

	if _, err := client.Login(ctx, exchange.APIKey(builderKey)); err != nil {
		t.Fatal(err)
	}
	byBuilder, _ := client.Kept()
	clock.Advance(time.Hour)
	_, _ = client.DepositAddresses(ctx) // renews the builder key's session, whatever it may ask
	if now, _ := client.Kept(); now.Cookie == byBuilder.Cookie || !strings.HasPrefix(now.Location, "builder:") {
		t.Fatalf("the builder key's session was not renewed: %+v", now.Session)
	}
	if kept := keptCookie(); kept != was {
		t.Error("the builder key's renewal was kept in the user's session's place")
	}
	if status := w.run("", nil, "auth", "status"); strings.Contains(status.stdout, "builder:") || !strings.Contains(status.stdout, "by API key") {
		t.Errorf("auth status after the builder key's renewal:\n%s%s", status.stdout, status.stderr)
	}
}
