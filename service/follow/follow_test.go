package follow_test

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestFollowAnswers walks one withdrawal through the follower: each answer's
// delay, what is journaled (never CREATED, never twice), and the end.
func TestFollowAnswers(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	half := func(n int64) int64 { return n / 2 }
	f := follow.Follow{QuoteID: "q-1", Own: true}
	steps := []struct {
		w       exchange.Withdrawal
		err     error
		delay   time.Duration
		journal string
		final   bool
	}{
		{exchange.Withdrawal{State: exchange.StateCreated, UpdatedAt: now}, nil, 3 * time.Second, "", false},
		{exchange.Withdrawal{}, &exchange.APIError{Status: 502}, 4500 * time.Millisecond, "", false},
		{exchange.Withdrawal{State: exchange.StateSubmitted, UpdatedAt: now}, nil, 3 * time.Second, exchange.StateSubmitted, false},
		{exchange.Withdrawal{State: exchange.StateSubmitted, UpdatedAt: now}, nil, 3 * time.Second, "", false},
		{exchange.Withdrawal{State: exchange.StateCompleted, UpdatedAt: now}, nil, 0, exchange.StateCompleted, true},
	}
	for i, s := range steps {
		step := f.Answer(s.w, s.err, 3*time.Second, half)
		if step.Delay != s.delay || step.JournalState != s.journal || f.Final != s.final {
			t.Fatalf("answer %d: delay %v journal %q final %v, want %v %q %v", i, step.Delay, step.JournalState, f.Final, s.delay, s.journal, s.final)
		}
	}
	if step := f.Answer(exchange.Withdrawal{State: exchange.StateFailed}, nil, time.Second, half); step != (follow.Step{}) || f.Last.State != exchange.StateCompleted {
		t.Fatalf("a final follow changed: %+v %s", step, f.Last.State)
	}
}

// TestFollowQuoteExpiry: an unexecuted quote ends the follow once a CREATED
// record is read with the service's clock past its own expires_at (when
// the journal has it) plus the margin, else past the longest quote life
// from updated_at; a 404 ends it as unknown.
func TestFollowQuoteExpiry(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	created := exchange.Withdrawal{State: exchange.StateCreated, UpdatedAt: now.Add(-30 * time.Second), ServiceTime: now}
	withExpiry := follow.Follow{QuoteExpiry: now.Add(-follow.ExecutableMargin - time.Second)}
	withExpiry.Answer(created, nil, time.Second, nil)
	byDefault := follow.Follow{}
	byDefault.Answer(created, nil, time.Second, nil)
	if !withExpiry.Final || byDefault.Final {
		t.Fatalf("journaled expiry final %v (want true), default lifetime final %v (want false)", withExpiry.Final, byDefault.Final)
	}
	// Without the journal's expiry, up to the longest quote life svcwallet
	// signs plus the margin, it may still execute; a second later it cannot.
	created.ServiceTime = created.UpdatedAt.Add(follow.LongestQuoteLife + follow.ExecutableMargin)
	byDefault.Answer(created, nil, time.Second, nil)
	if byDefault.Final {
		t.Fatal("a CREATED quote without its expiry called expired within the longest quote life and the margin")
	}
	created.ServiceTime = created.ServiceTime.Add(time.Second)
	byDefault.Answer(created, nil, time.Second, nil)
	if !byDefault.Final || !byDefault.ExpiredUnexecuted() {
		t.Fatal("a CREATED quote past the longest quote life and the margin is still followed")
	}
	unknown := follow.Follow{}
	if step := unknown.Answer(exchange.Withdrawal{}, &exchange.APIError{Status: 404, Code: exchange.CodeNotFound}, time.Second, nil); !step.Changed || !unknown.NotFound || !unknown.Final {
		t.Fatalf("404: %+v %+v", step, unknown)
	}
	unknown.Refresh()
	if unknown.Final {
		t.Fatal("refresh left an unknown id final")
	}
	limited := follow.Follow{}
	if step := limited.Answer(exchange.Withdrawal{}, &exchange.APIError{Status: 429, Code: exchange.CodeRateLimited, RetryAfter: 7 * time.Second}, time.Second, func(n int64) int64 { return 0 }); !step.RateLimited || step.Delay != 7*time.Second {
		t.Fatalf("429 with Retry-After 7s: %+v", step)
	}
}

// TestFollowRefreshAndRateLimits: r reopens a follow that ended on an
// expired unexecuted quote (our clock may be ahead) but not a terminal one;
// 429s in a row back off like other failures, and Retry-After is capped.
func TestFollowRefreshAndRateLimits(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	top := func(n int64) int64 { return n - 1 }
	expired := follow.Follow{}
	expired.Answer(exchange.Withdrawal{State: exchange.StateCreated, UpdatedAt: now.Add(-time.Hour), ServiceTime: now}, nil, time.Second, top)
	expired.Refresh()
	if step := expired.Answer(exchange.Withdrawal{State: exchange.StateSubmitted, UpdatedAt: now}, nil, time.Second, top); expired.Final || !step.Changed || expired.Last.State != exchange.StateSubmitted {
		t.Fatalf("refreshed expired follow: %+v, last %s", step, expired.Last.State)
	}
	done := follow.Follow{}
	done.Answer(exchange.Withdrawal{State: exchange.StateCompleted}, nil, time.Second, top)
	done.Refresh()
	if !done.Final {
		t.Fatal("refresh reopened a COMPLETED withdrawal")
	}
	limited := follow.Follow{}
	var delays []time.Duration
	for range 4 {
		delays = append(delays, limited.Answer(exchange.Withdrawal{}, &exchange.APIError{Status: 429, Code: exchange.CodeRateLimited}, 3*time.Second, top).Delay)
	}
	for i := 1; i < len(delays); i++ {
		if delays[i] <= delays[i-1] {
			t.Fatalf("429s in a row do not back off: %v", delays)
		}
	}
	if step := limited.Answer(exchange.Withdrawal{}, &exchange.APIError{Status: 429, Code: exchange.CodeRateLimited, RetryAfter: time.Hour}, time.Second, top); step.Delay != exchange.MaxRetryAfter {
		t.Fatalf("Retry-After of an hour paused %v, want the cap %v", step.Delay, exchange.MaxRetryAfter)
	}
}

// TestFollowPayout: what each last answer means for the money, the one
// answer every view (and the exit status of svcwallet status) gives.
func TestFollowPayout(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		f    follow.Follow
		want follow.Payout
	}{
		{follow.Follow{}, follow.PayoutPending},
		{follow.Follow{Known: true, Last: exchange.Withdrawal{State: exchange.StateCompleted}}, follow.PayoutPaid},
		{follow.Follow{Known: true, Last: exchange.Withdrawal{State: exchange.StateFailed}}, follow.PayoutNotPaid},
		{follow.Follow{Known: true, Last: exchange.Withdrawal{State: exchange.StateRefunded}}, follow.PayoutNotPaid},
		{follow.Follow{Known: true, Last: exchange.Withdrawal{State: exchange.StateSending}}, follow.PayoutPending},
		{follow.Follow{Known: true, Last: exchange.Withdrawal{State: exchange.StateCreated, UpdatedAt: now.Add(-time.Hour), ServiceTime: now}}, follow.PayoutNotPaid},
		{follow.Follow{Known: true, Last: exchange.Withdrawal{State: exchange.StateCreated, UpdatedAt: now.Add(-time.Hour)}}, follow.PayoutPending},
		{follow.Follow{Known: true, Last: exchange.Withdrawal{State: exchange.StateCreated, UpdatedAt: now.Add(-time.Hour), ServiceTime: now}, AcceptedAt: now.Add(-2 * time.Hour)}, follow.PayoutPending},
		{follow.Follow{Known: true, Last: exchange.Withdrawal{State: exchange.StateCreated, UpdatedAt: now}}, follow.PayoutPending},
	} {
		if got := tc.f.Payout(); got != tc.want {
			t.Errorf("%s (accepted %v): %v, want %v", tc.f.Last.State, !tc.f.AcceptedAt.IsZero(), got, tc.want)
		}
	}
}

// TestCreatedAfterAcceptanceIsNoExpiry: a CREATED record of a withdrawal the
// journal saw accepted is never read as "nothing was debited", and following
// does not end on it.
func TestCreatedAfterAcceptanceIsNoExpiry(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	accepted := t0.Add(-time.Hour)
	f := follow.Follow{QuoteID: "q-1", AcceptedAt: accepted}
	f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCreated, UpdatedAt: t0.Add(-2 * time.Hour), ServiceTime: t0}, nil, time.Second, func(int64) int64 { return 0 })
	if f.Final || f.ExpiredUnexecuted() {
		t.Fatal("a CREATED record of an accepted withdrawal ended the follow as expired")
	}
	got := f.Outcome().Words
	if f.Outcome().Name != follow.LabelContradicts || strings.Contains(got, "nothing was debited") || !strings.Contains(got, "The service reports CREATED for a withdrawal it accepted on "+accepted.UTC().Format("2006-01-02 15:04 UTC")) ||
		!strings.Contains(got, "ontact support") {
		t.Fatalf("meaning = %q", got)
	}
	f = follow.Follow{QuoteID: "q-2"}
	f.Answer(exchange.Withdrawal{QuoteID: "q-2", State: exchange.StateCreated, UpdatedAt: t0.Add(-2 * time.Hour), ServiceTime: t0}, nil, time.Second, func(int64) int64 { return 0 })
	if o := f.Outcome(); !f.Final || o.Name != follow.LabelExpired || o.Words != exchange.ExpiredWords {
		t.Fatalf("an unaccepted stale CREATED: final %v, %+v", f.Final, o)
	}
}
