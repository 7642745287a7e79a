package exchange_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestBackoff: after n failures the wait lies in the upper half of base
// doubled n-1 times, capped at the ceiling, whatever the jitter; the lowest
// and highest jitter reach both ends.
func TestBackoff(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const base, ceiling = 500 * time.Millisecond, 4 * time.Second
	for failures := 1; failures <= 70; failures++ {
		top := min(base<<min(failures-1, 20), ceiling)
		low := exchange.Backoff(base, ceiling, failures, func(int64) int64 { return 0 })
		high := exchange.Backoff(base, ceiling, failures, func(n int64) int64 { return n - 1 })
		if low != top/2 || high != top {
			t.Fatalf("%d failures: jitter ends %s and %s, want %s and %s", failures, low, high, top/2, top)
		}
		for range 50 {
			if d := exchange.Backoff(base, ceiling, failures, rng.Int64N); d < top/2 || d > top {
				t.Fatalf("%d failures: %s outside [%s, %s]", failures, d, top/2, top)
			}
		}
	}
	if d := exchange.Backoff(0, 0, 5, nil); d != 0 {
		t.Errorf("no base: %s", d)
	}
}

// TestOneRetryAfterPolicy: a 429 is waited out the same way by every
// caller (the follow scheduler, Withdraw, Patiently): an hour's Retry-After
// for MaxRetryAfter, a second's for a second even where the caller's
// backoff is longer.
func TestOneRetryAfterPolicy(t *testing.T) {
	top := func(n int64) int64 { return n - 1 }
	policy := exchange.RetryPolicy{Attempts: 3, Base: 5 * time.Second, Max: 5 * time.Second, Jitter: top}
	for _, asked := range []time.Duration{time.Hour, time.Second} {
		want := min(asked, exchange.MaxRetryAfter)
		limited := &exchange.APIError{Status: 429, Code: exchange.CodeRateLimited, RetryAfter: asked}

		now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
		s := follow.NewScheduler(5)
		s.Interval, s.Jitter = 5*time.Second, top
		s.Add("q-1", now)
		id, _, _ := s.Next(now)
		s.Answer(id, exchange.Withdrawal{}, limited, now)

		withdrew, err := withdrawAfter429(t, strconv.Itoa(int(asked/time.Second)), policy)
		if err != nil {
			t.Fatal(err)
		}

		var patient []time.Duration
		p := policy
		p.Sleep = func(_ context.Context, d time.Duration) error { patient = append(patient, d); return nil }
		calls := 0
		if _, err := exchange.Patiently(context.Background(), p, func(context.Context) (int, error) {
			if calls++; calls == 1 {
				return 0, limited
			}
			return calls, nil
		}); err != nil {
			t.Fatal(err)
		}

		got := fmt.Sprint(s.PausedFor(now), withdrew, patient)
		if wantAll := fmt.Sprint(want, []time.Duration{want}, []time.Duration{want}); got != wantAll {
			t.Errorf("Retry-After %s: scheduler, Withdraw, Patiently waited %s, want %s", asked, got, wantAll)
		}
	}
}
