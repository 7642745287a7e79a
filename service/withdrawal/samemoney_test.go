package withdrawal_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// named is the rig's service as a config would name it: name, reached at
// base (the direct URL, or a proxy of it), logged in with the demo key.
func (r *rig) named(name, base string) (config.Environment, *exchange.Client) {
	r.t.Helper()
	env := r.env
	env.Name, env.BaseURL = name, base
	c := exchange.New(env, exchange.Options{Now: r.local.Now, Retry: exchange.RetryPolicy{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond}})
	if _, err := c.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		r.t.Fatal(err)
	}
	return env, c
}

// proxyOf serves a proxy of base on a loopback host of its own.
func proxyOf(t *testing.T, base string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httputil.NewSingleHostReverseProxy(u))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestRepeatGuardAcrossNamesAndHosts is the attack of issue 33 item 3: a
// config naming one service twice (an old and a new name; a proxy and the
// direct URL). A withdrawal through the first gets no answer; the
// identical withdrawal through each other name is refused before
// anything is signed, since the money is the same account's on the same
// chain; a service on another chain is not held back.
func TestRepeatGuardAcrossNamesAndHosts(t *testing.T) {
	r := newRig(t, 0, false)
	oldEnv, oldClient := r.named("prod-old", r.env.BaseURL)
	newEnv, newClient := r.named("prod-new", r.env.BaseURL)
	proxyEnv, proxyClient := r.named("prod-proxy", proxyOf(t, r.env.BaseURL))
	if proxyEnv.Service().Host == oldEnv.Service().Host || newEnv.Service() != oldEnv.Service() {
		t.Fatalf("services %v, %v, %v: want one host for the names, another for the proxy", oldEnv.Service(), newEnv.Service(), proxyEnv.Service())
	}
	through := func(c *exchange.Client) withdrawal.Withdrawer {
		return mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: r.journal, Now: r.local.Now, BridgePins: r.pins})
	}
	r.client = oldClient
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	r.holding.Store(true)
	if sent := through(oldClient).Execute(context.Background(), o, demoKey); sent.Lost == nil {
		t.Fatalf("every attempt held, yet: %+v", sent)
	}
	r.holding.Store(false)
	sentBefore := r.withdraws.Load()
	loads := 0
	key := func() (signer.Key, error) { loads++; return demoKey() }
	for name, c := range map[string]*exchange.Client{"a new name": newClient, "a proxy": proxyClient} {
		r.client = c
		again := r.order(r.choice(sandbox.DestCompleted, "25"))
		sent := through(c).Execute(context.Background(), again, key)
		var unanswered *withdrawal.UnansweredError
		if !errors.As(sent.Err, &unanswered) || unanswered.Earlier.QuoteID != o.Quote.QuoteID {
			t.Errorf("through %s: %v, want the unanswered %s named", name, sent.Err, o.Quote.QuoteID)
		}
	}
	if loads != 0 || r.withdraws.Load() != sentBefore {
		t.Fatalf("%d keys loaded, %d more withdraw requests: the repeat was signed", loads, r.withdraws.Load()-sentBefore)
	}
	// Another chain is another service's money.
	otherEnv := proxyEnv
	otherEnv.Name, otherEnv.ChainID = "testnet", 326
	other := exchange.New(otherEnv, exchange.Options{Now: r.local.Now})
	if _, err := other.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	if rep, err := through(other).Repeats(o.Choice); err != nil || rep.Unanswered != nil {
		t.Fatalf("on another chain: %+v, %v; want no repeat", rep.Unanswered, err)
	}
}

// TestRepeatGuardOfEarlierLines: a withdrawal journaled by an earlier
// version (its lines name the environment alone, no service, no typed
// data) is still found through that name, and only through it.
func TestRepeatGuardOfEarlierLines(t *testing.T) {
	r := newRig(t, 0, false)
	oldEnv, oldClient := r.named("prod-old", r.env.BaseURL)
	_, newClient := r.named("prod-new", r.env.BaseURL)
	r.client = oldClient
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	s, _ := oldClient.Session()
	req := exchange.WithdrawRequest{QuoteID: o.Quote.QuoteID, Signature: exchange.WithdrawSignature{
		Signer: sandbox.DemoAddress, R: "0x" + strings.Repeat("1", 64), S: "0x" + strings.Repeat("2", 64), V: 27, Nonce: 7, Expiration: "1795909616479204601"}}
	in := o.Intent()
	earlier := journal.Entry{Time: r.local.Now(), Kind: journal.KindIntent, Env: oldEnv.Name, AccountID: s.AccountID, QuoteID: o.Quote.QuoteID,
		Request: &req, Intent: &in}
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(earlier); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*exchange.Client{"prod-old": oldClient, "prod-new": newClient} {
		rep, err := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: j, Now: r.local.Now}).Repeats(o.Choice)
		if found := rep.Unanswered != nil; err != nil || found != (name == "prod-old") {
			t.Errorf("through %s: unanswered %+v (%v)", name, rep.Unanswered, err)
		}
	}
}

// TestResumeOnlyWhereItWasSent is the attack of issue 33 item 7: after a
// withdrawal got no answer, its environment's name is pointed at another
// host. Settling it there is refused, naming both services, with nothing
// sent or asked; through the service it was signed for it settles.
func TestResumeOnlyWhereItWasSent(t *testing.T) {
	r := newRig(t, 0, false)
	o, rec := r.lostWithdrawal()
	r.holding.Store(false)
	if rec.Service != r.env.Service() {
		t.Fatalf("the intent names %v, want %v", rec.Service, r.env.Service())
	}
	elsewhere, c := r.named(r.env.Name, proxyOf(t, r.env.BaseURL))
	requests := 0
	count := func(*http.Request) { requests++ }
	r.before.Store(&count)
	settled := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: r.journal, Now: r.local.Now}).Settle(context.Background(), rec)
	var other *withdrawal.OtherServiceError
	if settled.Outcome != withdrawal.SettledElsewhere || !errors.As(settled.Err, &other) || requests != 0 ||
		!strings.Contains(settled.Err.Error(), r.env.Service().String()) || !strings.Contains(settled.Err.Error(), elsewhere.Service().String()) {
		t.Fatalf("settled through another host: %+v, %d requests; want it refused naming both services", settled, requests)
	}
	r.before.Store(nil)
	if settled := r.withdrawer().Settle(context.Background(), rec); settled.Outcome != withdrawal.SettledAccepted {
		t.Fatalf("settled where it was sent: %+v", settled)
	}
	if r.guarded(o) {
		t.Fatal("still unanswered once settled")
	}
}

// TestResumeNotAcrossSchemes: a withdrawal signed for https://localhost (a
// proxy on :443) is not settled through http://localhost (a sandbox on
// :80), nor one of the sandbox's through the proxy: they are two services
// on one host, refused naming both, with nothing sent.
func TestResumeNotAcrossSchemes(t *testing.T) {
	r := newRig(t, 0, false)
	_, rec := r.lostWithdrawal()
	r.holding.Store(false)
	for _, tc := range []struct{ signedFor, through string }{{"https://localhost", "http://localhost"}, {"http://localhost:80", "https://localhost:443"}} {
		signed, here := r.env, r.env
		signed.BaseURL, here.BaseURL = tc.signedFor, tc.through
		line := rec
		line.Service = signed.Service()
		c := exchange.New(here, exchange.Options{Now: r.local.Now})
		settled := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: r.journal, Now: r.local.Now}).Settle(context.Background(), line)
		var other *withdrawal.OtherServiceError
		if settled.Outcome != withdrawal.SettledElsewhere || !errors.As(settled.Err, &other) || other.Signed == other.Here {
			t.Errorf("signed for %s, settled through %s: %+v; want it refused as another service's", tc.signedFor, tc.through, settled)
		}
	}
}

// TestResumeOnLoopbackOfAnEarlierVersion: a withdrawal lost at
// http://localhost is settled there whether its line was written by an
// earlier version (the host without its port, "localhost") or by this one
// ("localhost:80"): recording the port on loopback strands neither.
func TestResumeOnLoopbackOfAnEarlierVersion(t *testing.T) {
	for _, recorded := range []string{"localhost", "localhost:80"} {
		r := newRig(t, 0, false)
		_, rec := r.lostWithdrawal()
		r.holding.Store(false)
		// http://localhost as the config names it, reaching the rig's
		// sandbox, which listens on a port of its own.
		here := r.env
		here.BaseURL = "http://localhost"
		server, err := url.Parse(r.env.BaseURL)
		if err != nil {
			t.Fatal(err)
		}
		dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, server.Host)
		}
		c := exchange.New(here, exchange.Options{Now: r.local.Now, HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dial}}})
		if _, err := c.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
			t.Fatal(err)
		}
		rec.Service.Host = recorded
		if settled := mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: r.journal, Now: r.local.Now}).Settle(context.Background(), rec); settled.Outcome != withdrawal.SettledAccepted {
			t.Errorf("a line recording %q, settled through %s: %+v", recorded, here.BaseURL, settled)
		}
	}
}
