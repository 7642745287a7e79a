package exchange_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestEnvironmentNames: a deployment that names its session cookie, its
// account-id header and its EIP-712 domain in its own words is reached by
// configuration alone: API-key and wallet login, the session endpoints, a
// signed withdrawal. A client left with the spec's names is told which
// name to set.
func TestEnvironmentNames(t *testing.T) {
	clock := exchangetest.NewFakeClock(t0)
	ex := sandbox.New(sandbox.Options{Now: clock.Now, DomainName: "Acme Exchange", CookieName: "acme_session", AccountIDHeader: "X-Acme-Account"})
	srv := httptest.NewServer(ex)
	t.Cleanup(srv.Close)
	env := config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
	env.BridgeFundingAddress = ""

	_, err := exchange.New(env, exchange.Options{Now: clock.Now}).Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey))
	if err == nil || !strings.Contains(err.Error(), "cookie named svc") || !strings.Contains(err.Error(), "cookie_name") {
		t.Fatalf("the spec's names against a renamed deployment: %v", err)
	}

	env.DomainName, env.CookieName, env.AccountIDHeader = "Acme Exchange", "acme_session", "X-Acme-Account"
	if err := env.Validate(); err != nil {
		t.Fatal(err)
	}
	w := &world{&loopback.World{T: t, Clock: clock, Ex: ex, Env: env}}
	key := mustKey(t, sandbox.DemoPrivateKey)
	for name, cred := range map[string]exchange.Credential{"API key": exchange.APIKey(sandbox.DemoAPIKey), "wallet": exchange.Wallet(key)} {
		c := w.Client(exchange.Options{})
		if _, err := c.Login(context.Background(), cred); err != nil {
			t.Fatalf("%s login: %v", name, err)
		}
		if s, _ := c.Session(); s.AccountID != sandbox.DemoAccountID {
			t.Fatalf("%s login: account id %q from the renamed header", name, s.AccountID)
		}
		if _, err := c.WithdrawalInfo(context.Background()); err != nil {
			t.Fatalf("%s: a session call: %v", name, err)
		}
	}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Withdraw(context.Background(), w.signWithdraw(c, q, key, nil)); err != nil {
		t.Fatalf("a Transfer signed for the %q domain: %v", env.Domain().Name, err)
	}
	clock.Advance(time.Hour)
	if st, err := c.WithdrawalStatus(context.Background(), q.QuoteID); err != nil || st.State != exchange.StateCompleted {
		t.Fatalf("status %+v, %v", st, err)
	}
	// A Transfer signed for the spec's domain is not this deployment's.
	q2, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	w.Env.DomainName = signer.DefaultDomainName
	if _, err := c.Withdraw(context.Background(), w.signWithdraw(c, q2, key, nil)); err == nil {
		t.Fatal("a signature for the spec's domain was accepted by the Acme deployment")
	}
}

// TestEnvironmentNamesChecked: cookie and header names must be HTTP tokens.
func TestEnvironmentNamesChecked(t *testing.T) {
	for _, e := range []config.Environment{
		{Name: "x", ChainID: 1, CookieName: "a b"},
		{Name: "x", ChainID: 1, AccountIDHeader: "X-Acct\r\nSet-Cookie"},
	} {
		if err := e.Validate(); err == nil || !strings.Contains(err.Error(), "HTTP token") {
			t.Errorf("%+v: %v", e, err)
		}
	}
}
