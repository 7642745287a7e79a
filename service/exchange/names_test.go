package exchange_test

import (
	"context"
	"net"
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

// TestSuspectNames: each wrong name a deployment chooses is told apart by
// what its failure looks like (docs/real-service.md's table): the cookie,
// the header, the domain name, the chain id, and each host.
func TestSuspectNames(t *testing.T) {
	clock := exchangetest.NewFakeClock(t0)
	ex := sandbox.New(sandbox.Options{Now: clock.Now, DomainName: "Acme Exchange", CookieName: "acme_session", AccountIDHeader: "X-Acme-Account"})
	srv := httptest.NewServer(ex)
	t.Cleanup(srv.Close)
	right := config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
	right.DomainName, right.CookieName, right.AccountIDHeader = "Acme Exchange", "acme_session", "X-Acme-Account"
	key := mustKey(t, sandbox.DemoPrivateKey)
	login := func(e config.Environment, cred exchange.Credential) error {
		_, err := exchange.New(e, exchange.Options{Now: clock.Now}).Login(context.Background(), cred)
		return err
	}
	if err := login(right, exchange.Wallet(key)); err != nil {
		t.Fatalf("the right names: %v", err)
	}
	for key2, wrong := range map[string]func(*config.Environment) exchange.Credential{
		"cookie_name": func(e *config.Environment) exchange.Credential {
			e.CookieName = "svc"
			return exchange.APIKey(sandbox.DemoAPIKey)
		},
		"account_id_header": func(e *config.Environment) exchange.Credential {
			e.AccountIDHeader = "X-Other"
			return exchange.APIKey(sandbox.DemoAPIKey)
		},
		"domain_name": func(e *config.Environment) exchange.Credential {
			e.DomainName = "Other Exchange"
			return exchange.Wallet(key)
		},
		"auth_url": func(e *config.Environment) exchange.Credential {
			e.AuthURL = srv.URL + "/nothing"
			return exchange.APIKey(sandbox.DemoAPIKey)
		},
	} {
		e := right
		cred := wrong(&e)
		err := login(e, cred)
		if s, ok := exchange.SuspectOfLogin(err); !ok || s.Key != key2 {
			t.Errorf("a wrong %s: %v suspects %+v, %v", key2, err, s, ok)
		}
	}
	if s, ok := exchange.SuspectOfLogin(&exchange.APIError{Status: 400, Code: exchange.CodeBadChainID}); !ok || s.Key != "chain_id" {
		t.Errorf("1012: %+v", s)
	}
	closed := httptest.NewServer(nil)
	closed.Close()
	e := right
	e.BaseURL = closed.URL
	e.MarketDataURL = srv.URL + "/nothing"
	p := exchange.New(e, exchange.Options{}).Probe(context.Background())
	for _, h := range p.Hosts {
		s, ok := exchange.SuspectOfHost(h)
		if h.Label == "base_url" && (!ok || s.Key != "base_url" || !strings.Contains(s.Seen, "nothing answers")) {
			t.Errorf("a closed port: %+v", s)
		}
		if h.Label == "auth_url" && ok {
			t.Errorf("the right auth host is suspected: %+v", s)
		}
	}
	if s, ok := exchange.SuspectOfClock(p.ClockErr); !ok || s.Key != "market_data_url" {
		t.Errorf("/time on another host: %v suspects %+v", p.ClockErr, s)
	}
	if s, ok := exchange.SuspectOfHost(exchange.HostProbe{Label: "auth_url", Err: &exchange.TransportError{Err: &net.DNSError{IsNotFound: true}}}); !ok || !strings.Contains(s.Seen, "not found") {
		t.Errorf("a host not found: %+v", s)
	}
	for _, n := range exchange.DeploymentNames {
		if n.Key == "" || n.WrongLooks == "" {
			t.Errorf("%+v", n)
		}
	}
}
