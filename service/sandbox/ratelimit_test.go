package sandbox

import (
	"net/http"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestRateLimit: with RateLimit 5, an account's sixth request in one second
// of the sandbox clock is refused with 429, code 1006 and Retry-After; the
// next second it is served again, and another account has its own budget.
func TestRateLimit(t *testing.T) {
	h := newHarness(t, Options{RateLimit: 5})
	h.clock.Advance(300 * time.Millisecond)
	s := h.login(DemoAPIKey)
	other := h.login(NoChainAPIKey)
	path := exchange.PathWithdrawalStatus + "?quote_id=q-none"
	for i := range 5 {
		if r := s.do(http.MethodGet, path, nil); r.status == http.StatusTooManyRequests {
			t.Fatalf("request %d of 5 refused", i+1)
		}
	}
	r := s.do(http.MethodGet, path, nil)
	wantError(t, r, exchange.CodeRateLimited)
	wantStatus(t, r, http.StatusTooManyRequests)
	if got := r.header.Get("Retry-After"); got != "1" {
		t.Fatalf("Retry-After %q, want 1", got)
	}
	if r := other.do(http.MethodGet, path, nil); r.status == http.StatusTooManyRequests {
		t.Fatal("another account's request counted against this one")
	}
	h.clock.Advance(700 * time.Millisecond)
	if r := s.do(http.MethodGet, path, nil); r.status == http.StatusTooManyRequests {
		t.Fatal("still refused in the next second")
	}
}

// TestNoRateLimitByDefault: without RateLimit nothing is refused for rate.
func TestNoRateLimitByDefault(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	for range 20 {
		if r := s.do(http.MethodGet, exchange.PathWithdrawalStatus+"?quote_id=q-none", nil); r.status == http.StatusTooManyRequests {
			t.Fatal("refused without a rate limit")
		}
	}
}
