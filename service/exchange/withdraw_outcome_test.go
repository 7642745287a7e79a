package exchange_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// scriptedExchange answers /withdraw from a script of handlers, one per
// attempt, and every other path from the sandbox (for the login).
func scriptedExchange(t *testing.T, script ...http.HandlerFunc) (config.Environment, *atomic.Int32) {
	t.Helper()
	ex := sandbox.New(sandbox.Options{})
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != exchange.PathWithdraw {
			ex.ServeHTTP(w, r)
			return
		}
		i := int(n.Add(1)) - 1
		if i >= len(script) {
			t.Errorf("attempt %d beyond the script", i+1)
			http.Error(w, "", http.StatusTeapot)
			return
		}
		script[i](w, r)
	}))
	t.Cleanup(srv.Close)
	return config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), &n
}

func drop(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		conn.Close()
	}
}

func answer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

func loggedIn(t *testing.T, env config.Environment) *exchange.Client {
	t.Helper()
	c := exchange.New(env, exchange.Options{Retry: exchange.RetryPolicy{Attempts: 3, Sleep: noSleep}})
	if _, err := c.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestWithdrawRefusalAfterSilenceIsUnknown: when an attempt got no answer,
// a later refusal (here "duplicate signature") may be the service seeing the
// first one again: the outcome is unknown, not a refusal.
func TestWithdrawRefusalAfterSilenceIsUnknown(t *testing.T) {
	env, n := scriptedExchange(t, drop, answer(400, `{"code":4007,"message":"duplicate","status":400}`))
	_, err := loggedIn(t, env).Withdraw(context.Background(), exchange.WithdrawRequest{QuoteID: "q-1"})
	var ou *exchange.OutcomeUnknownError
	if !errors.As(err, &ou) || !exchange.OutcomeUnknown(err) {
		t.Fatalf("err = %v; want an unknown outcome", err)
	}
	if !errors.Is(err, exchange.CodeDuplicateSignature) {
		t.Errorf("the refusal itself is lost: %v", err)
	}
	if n.Load() != 2 {
		t.Errorf("%d attempts, want 2", n.Load())
	}
	// Without the silence first, the same refusal is final.
	env, _ = scriptedExchange(t, answer(400, `{"code":4007,"message":"duplicate","status":400}`))
	_, err = loggedIn(t, env).Withdraw(context.Background(), exchange.WithdrawRequest{QuoteID: "q-1"})
	if exchange.OutcomeUnknown(err) || !errors.Is(err, exchange.CodeDuplicateSignature) {
		t.Fatalf("err = %v; want a plain refusal", err)
	}
}

// TestWithdrawUnreadableAcceptance: a 202 whose body cannot be read still
// means the withdrawal was accepted.
func TestWithdrawUnreadableAcceptance(t *testing.T) {
	env, _ := scriptedExchange(t, answer(202, `{"quote_id":"q-1","fee_usd":"","state":"SUBMITTED"}`))
	got, err := loggedIn(t, env).Withdraw(context.Background(), exchange.WithdrawRequest{QuoteID: "q-1"})
	if err != nil || got.QuoteID != "q-1" || got.State != exchange.StateSubmitted {
		t.Fatalf("got %+v, %v; want accepted q-1", got, err)
	}
}

// TestClientDoesNotFollowRedirects: a redirect would carry the API key (and
// withdraw bodies) to a host nobody configured.
func TestClientDoesNotFollowRedirects(t *testing.T) {
	var leaked atomic.Bool
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(exchange.HeaderAPIKey) != "" {
			leaked.Store(true)
		}
	}))
	t.Cleanup(elsewhere.Close)
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirecting.Close)
	c := exchange.New(config.SandboxEnvironment(redirecting.URL, 327), exchange.Options{APIKey: sandbox.DemoAPIKey})
	_, err := c.DepositAddresses(context.Background())
	var ae *exchange.APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusTemporaryRedirect {
		t.Fatalf("err = %v; want the 307 itself", err)
	}
	if leaked.Load() {
		t.Fatal("the API key followed the redirect to another host")
	}
}
