package follow

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

var expiresAt = time.Date(2026, 3, 2, 10, 1, 0, 0, time.UTC)

// TestMayStillExecute: a quote may execute until the service's clock is
// past its expiry and ExecutableMargin, which covers the skew tolerated
// and a withdraw still in flight; without the service's time (or the
// expiry), it always may.
func TestMayStillExecute(t *testing.T) {
	if ExecutableMargin < exchange.MaxClockSkew+exchange.WithdrawTimeout {
		t.Fatalf("margin %s covers less than the skew tolerated and a request in flight", ExecutableMargin)
	}
	for _, tc := range []struct {
		at   time.Time
		want bool
	}{
		{expiresAt.Add(-time.Minute), true},
		{expiresAt.Add(30 * time.Second), true},
		{expiresAt.Add(ExecutableMargin), true},
		{expiresAt.Add(ExecutableMargin + time.Millisecond), false},
		{time.Time{}, true},
	} {
		if got := MayStillExecute(expiresAt, tc.at); got != tc.want {
			t.Errorf("service clock %s: %v, want %v", tc.at, got, tc.want)
		}
	}
	if !MayStillExecute(time.Time{}, expiresAt.Add(time.Hour)) {
		t.Error("an unknown expiry taken for one that passed")
	}
}

// TestCreatedExpiresOnTheServicesClock: a CREATED record of an own quote
// is EXPIRED ("nothing was debited", final, not paid) only when it was
// read with the service's clock past the quote's expiry and the margin;
// read before (whatever our own clock says: it is not asked), or without the
// service's time, it is CREATED, pending and followed on, and past its
// expiry within the margin its words say until when it may execute.
func TestCreatedExpiresOnTheServicesClock(t *testing.T) {
	interval := 3 * time.Second
	for _, tc := range []struct {
		name    string
		service time.Time
		expired bool
		words   string
	}{
		{"before its expiry", expiresAt.Add(-time.Minute), false, exchange.StateWords[exchange.StateCreated]},
		{"within the margin", expiresAt.Add(30 * time.Second), false, "a request still on its way may execute it until 10:05:00 UTC"},
		{"at the margin's last instant", expiresAt.Add(ExecutableMargin), false, "a request still on its way may execute it until 10:05:00 UTC"},
		{"service's time unknown", time.Time{}, false, exchange.StateWords[exchange.StateCreated]},
		{"past the margin", expiresAt.Add(ExecutableMargin + time.Second), true, exchange.ExpiredWords},
	} {
		f := Follow{QuoteID: "q-1", Own: true, QuoteExpiry: expiresAt}
		step := f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCreated, UpdatedAt: expiresAt.Add(-time.Minute), ServiceTime: tc.service}, nil, interval, nil)
		o := f.Outcome()
		switch {
		case f.Final != tc.expired || f.Ended() != tc.expired || f.ExpiredUnexecuted() != tc.expired:
			t.Errorf("%s: final %v, want %v", tc.name, f.Final, tc.expired)
		case tc.expired && (o.Name != LabelExpired || f.Payout() != PayoutNotPaid || step.Delay != 0):
			t.Errorf("%s: %+v, payout %v, delay %s", tc.name, o, f.Payout(), step.Delay)
		case !tc.expired && (o.Name != exchange.StateCreated || f.Payout() != PayoutPending || step.Delay != interval):
			t.Errorf("%s: %+v, payout %v, delay %s; want CREATED, pending, asked again", tc.name, o, f.Payout(), step.Delay)
		case !strings.Contains(o.Words, tc.words):
			t.Errorf("%s: words %q, want %q", tc.name, o.Words, tc.words)
		}
	}
	// Without the journal's expiry, the longest quote life from updated_at,
	// and the words say the expiry is not known here.
	f := Follow{QuoteID: "q-2"}
	created := exchange.Withdrawal{QuoteID: "q-2", State: exchange.StateCreated, UpdatedAt: expiresAt.Add(-LongestQuoteLife)}
	created.ServiceTime = expiresAt.Add(ExecutableMargin)
	if f.Answer(created, nil, interval, nil); f.Final {
		t.Fatal("a quote of unknown expiry ended within the margin of the longest quote life")
	}
	if w := f.Outcome().Words; !strings.Contains(w, "journal does not have the quote's expiry") || !strings.Contains(w, "may execute it until 10:05:00 UTC") {
		t.Fatalf("a quote of unknown expiry within the margin: %q", w)
	}
	created.ServiceTime = expiresAt.Add(ExecutableMargin + time.Second)
	if f.Answer(created, nil, interval, nil); !f.Final || f.Outcome().Name != LabelExpired {
		t.Fatalf("a quote of unknown expiry past the longest quote life and the margin: %+v", f.Outcome())
	}
}

// TestNotFoundAfterAcceptance: a 404 for a withdrawal the journal saw
// accepted contradicts the journal: NOT FOUND? with the acceptance's date
// and "contact support", never final, never "not found", still pending,
// asked again at the interval; an answer afterwards clears it. A 404 for
// one never accepted is NOT FOUND, final.
func TestNotFoundAfterAcceptance(t *testing.T) {
	now := expiresAt
	accepted := now.Add(-10 * time.Minute)
	notFound := &exchange.APIError{Status: 404, Code: exchange.CodeNotFound}
	f := Follow{QuoteID: "q-1", Own: true, AcceptedAt: accepted}
	f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateSubmitted, UpdatedAt: now}, nil, time.Second, nil)
	for i := range 3 {
		step := f.Answer(exchange.Withdrawal{}, notFound, 3*time.Second, nil)
		if f.Final || f.NotFound || !f.Vanished || step.Delay != 3*time.Second || step.Changed != (i == 0) || step.JournalState != "" {
			t.Fatalf("404 %d after acceptance: %+v, step %+v", i, f, step)
		}
	}
	o := f.Outcome()
	if o.Name != LabelVanished || !strings.Contains(o.Words, "accepted this withdrawal on "+accepted.UTC().Format("2006-01-02 15:04 UTC")) ||
		!strings.Contains(o.Words, "Contact support") || strings.Contains(o.Words, "nothing was debited") || f.Payout() != PayoutPending || f.Ended() {
		t.Fatalf("outcome %+v, payout %v", o, f.Payout())
	}
	if step := f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateSending, UpdatedAt: now}, nil, time.Second, nil); !step.Changed || f.Vanished || f.Outcome().Name != exchange.StateSending {
		t.Fatalf("an answer after the 404s: %+v, %+v", step, f.Outcome())
	}

	s := NewScheduler(5)
	s.Know(Own{"q-1": {QuoteID: "q-1", Made: true, AcceptedAt: accepted}})
	s.Add("q-1", now)
	s.Add("q-other", now)
	for range 2 {
		id, _, _ := s.Next(now)
		s.Answer(id, exchange.Withdrawal{}, notFound, now)
		now = now.Add(time.Second)
	}
	if got, _ := s.Get("q-1"); got.Final || !got.Vanished || s.Moving() != 1 {
		t.Fatalf("the accepted one: %+v, %d moving", got, s.Moving())
	}
	if got, _ := s.Get("q-other"); !got.Final || !got.NotFound || got.Outcome().Name != LabelNotFound {
		t.Fatalf("one never accepted: %+v", got)
	}

	// Taken for unknown before the journal was read, or kept so from an
	// earlier run: once the journal says it was accepted, asked again.
	late := NewScheduler(5)
	late.Add("q-1", now)
	id, _, _ := late.Next(now)
	late.Answer(id, exchange.Withdrawal{}, notFound, now)
	late.AddKept(Kept{QuoteID: "q-kept", NotFound: true}, now)
	if late.Moving() != 0 {
		t.Fatalf("%d moving before the journal was read, want none", late.Moving())
	}
	late.Know(Own{"q-1": {QuoteID: "q-1", Made: true, AcceptedAt: accepted}, "q-kept": {QuoteID: "q-kept", Made: true, AcceptedAt: accepted}})
	for _, id := range []string{"q-1", "q-kept"} {
		if got, _ := late.Get(id); got.Final || got.NotFound || !got.Vanished {
			t.Errorf("%s once the journal was read: %+v", id, got)
		}
	}
	if late.Moving() != 2 {
		t.Fatalf("%d moving, want both asked again", late.Moving())
	}
	kept := NewScheduler(5)
	kept.Know(Own{"q-kept": {QuoteID: "q-kept", Made: true, AcceptedAt: accepted}})
	kept.AddKept(Kept{QuoteID: "q-kept", NotFound: true}, now)
	if got, _ := kept.Get("q-kept"); got.Final || !got.Vanished || kept.Moving() != 1 {
		t.Fatalf("kept as unknown, accepted by the journal: %+v", got)
	}
}

// TestUnknownExpiryNeverCalledEarly: a quote created at t0 that expires
// 4m50s later (svcwallet signs one that far ahead), followed from a journal
// without its expires_at (made on another machine), is not called EXPIRED
// while a request on its way may still execute it.
func TestUnknownExpiryNeverCalledEarly(t *testing.T) {
	t0 := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	realExpiry := t0.Add(4*time.Minute + 50*time.Second)
	f := Follow{QuoteID: "q-elsewhere"}
	f.Answer(exchange.Withdrawal{QuoteID: "q-elsewhere", State: exchange.StateCreated, UpdatedAt: t0, ServiceTime: realExpiry.Add(ExecutableMargin)}, nil, time.Second, nil)
	if f.Final || f.Payout() == PayoutNotPaid {
		t.Fatalf("called %s within the margin of the quote's real expiry", f.Outcome().Name)
	}
}
