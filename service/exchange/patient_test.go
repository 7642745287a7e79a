package exchange_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestPatiently: a call refused with 429 is made again after the service's
// Retry-After (at most MaxRetryAfter; without one, the policy's backoff),
// PatientTries times in all; any other error, or a cancelled wait, ends it
// at once.
func TestPatiently(t *testing.T) {
	limited := func(after time.Duration) error {
		return &exchange.APIError{Status: 429, Code: exchange.CodeRateLimited, RetryAfter: after}
	}
	for _, tc := range []struct {
		name   string
		errs   []error
		sleeps []time.Duration
		calls  int
		ok     bool
	}{
		{"answered at once", []error{nil}, nil, 1, true},
		{"429 then answered", []error{limited(2 * time.Second), nil}, []time.Duration{2 * time.Second}, 2, true},
		{"429 without Retry-After, an hour", []error{limited(0), limited(time.Hour), nil}, []time.Duration{time.Second, exchange.MaxRetryAfter}, 3, true},
		{"429 every time", []error{limited(time.Second), limited(time.Second), limited(time.Second), nil}, []time.Duration{time.Second, time.Second}, exchange.PatientTries, false},
		{"another error", []error{errors.New("boom"), nil}, nil, 1, false},
	} {
		var sleeps []time.Duration
		calls := 0
		p := exchange.RetryPolicy{Attempts: 1, Base: time.Second, Max: time.Second, Jitter: func(n int64) int64 { return n - 1 },
			Sleep: func(_ context.Context, d time.Duration) error {
				sleeps = append(sleeps, d)
				return nil
			}}
		v, err := exchange.Patiently(context.Background(), p, func(context.Context) (int, error) {
			err := tc.errs[calls]
			calls++
			return calls, err
		})
		if (err == nil) != tc.ok || calls != tc.calls || !slices.Equal(sleeps, tc.sleeps) || (tc.ok && v != calls) {
			t.Errorf("%s: %d calls, sleeps %v, err %v", tc.name, calls, sleeps, err)
		}
	}
	calls := 0
	_, err := exchange.Patiently(context.Background(), exchange.RetryPolicy{Sleep: func(context.Context, time.Duration) error { return context.Canceled }},
		func(context.Context) (int, error) { calls++; return 0, limited(time.Second) })
	if calls != 1 || !errors.Is(err, exchange.ErrRateLimited) {
		t.Errorf("a cancelled wait: %d calls, %v", calls, err)
	}
}
