package exchange_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawCapsRetryAfter: a withdraw refused with 429 is retried with
// the identical body after the service's Retry-After, at most
// MaxRetryAfter however long it asks; a shorter one is honoured as asked,
// even under the backoff; without one, the backoff. Each pays once.
func TestWithdrawCapsRetryAfter(t *testing.T) {
	policy := exchange.RetryPolicy{Attempts: 3, Base: 5 * time.Second, Max: 5 * time.Second, Jitter: func(n int64) int64 { return n - 1 }}
	for _, tc := range []struct {
		retryAfter string
		want       time.Duration
	}{
		{"3600", exchange.MaxRetryAfter},
		{"1", time.Second},
		{"", 5 * time.Second},
	} {
		waits, err := withdrawAfter429(t, tc.retryAfter, policy)
		if err != nil || !slices.Equal(waits, []time.Duration{tc.want}) {
			t.Errorf("Retry-After %q: waited %v (%v), want [%s]", tc.retryAfter, waits, err, tc.want)
		}
	}
}

// withdrawAfter429 withdraws 25 USDT on a sandbox whose first withdraw
// answer is a 429 naming retryAfter (none when empty), under policy; it
// returns the waits Withdraw slept, after checking the account paid once.
func withdrawAfter429(t *testing.T, retryAfter string, policy exchange.RetryPolicy) ([]time.Duration, error) {
	t.Helper()
	w := newWorld(t, sandbox.Options{})
	var limited atomic.Bool
	proxy := &http.Client{Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path != exchange.PathWithdraw || limited.Swap(true) {
			return http.DefaultTransport.RoundTrip(req)
		}
		h := http.Header{"Content-Type": {"application/json"}}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: h, Request: req,
			Body: io.NopCloser(strings.NewReader(`{"code":1006,"message":"rate limited"}`))}, nil
	})}
	var waits []time.Duration
	policy.Sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: proxy, Retry: policy})
	q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "25")
	if err != nil {
		t.Fatal(err)
	}
	before := w.Ex.Balance(sandbox.DemoAccountID)
	_, err = c.Withdraw(context.Background(), w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil))
	if paid := before.Sub(w.Ex.Balance(sandbox.DemoAccountID)); err == nil && !paid.Equal(decimal.RequireFromString("25")) {
		t.Fatalf("Retry-After %q: paid %s, want 25 once", retryAfter, paid)
	}
	return waits, err
}
