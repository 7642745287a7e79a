package follow

import (
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// A not found of a request this machine sent with no answer is not final
// while the service's clock says its quote may still execute: it is
// NOT FOUND YET, pending, asked again; past the margin it is EXPIRED,
// never paid, as `withdraw resume` settles it; without the service's
// clock it is never called.
func TestNotFoundOfUnansweredRequest(t *testing.T) {
	expires := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	own := Own{"q-1": {QuoteID: "q-1", Made: true, Intent: journal.Intent{ExpiresAt: expires}}}
	f := Follow{QuoteID: "q-1"}
	own.Seed(&f)
	notFound := func(at time.Time) Step {
		return f.Answer(exchange.Withdrawal{QuoteID: "q-1", ServiceTime: at}, exchange.ErrNotFound, 3*time.Second, nil)
	}
	for i, at := range []time.Time{expires.Add(-30 * time.Second), expires.Add(ExecutableMargin), {}} {
		step := notFound(at)
		if f.Final || f.NotFound || !f.Vanished || step.Delay != 3*time.Second || step.Changed != (i == 0) || f.Payout() != PayoutPending {
			t.Fatalf("not found at %v: final %v, not found %v, vanished %v, %+v, payout %v; want asked again, pending", at, f.Final, f.NotFound, f.Vanished, step, f.Payout())
		}
		o := f.Outcome()
		if want := "may still execute until " + expires.Add(ExecutableMargin).Format("15:04:05") + " UTC"; o.Name != LabelNotFoundYet || !strings.Contains(o.Words, want) || !strings.Contains(o.Words, "Sent, no answer yet; not found so far") {
			t.Fatalf("outcome %+v, want %s saying %q", o, LabelNotFoundYet, want)
		}
	}
	step := notFound(expires.Add(ExecutableMargin + time.Second))
	if !f.Final || !f.NotFound || f.Vanished || !step.Changed || f.Payout() != PayoutNotPaid || f.Outcome().Name != LabelExpired {
		t.Fatalf("past the margin: final %v, not found %v, vanished %v, payout %v, outcome %+v; want EXPIRED, not paid", f.Final, f.NotFound, f.Vanished, f.Payout(), f.Outcome())
	}

	// Settled never paid (withdraw resume journaled it): EXPIRED still.
	settled := Own{"q-1": {QuoteID: "q-1", Made: true, Answered: true, QuoteExpired: true, Error: journal.NeverPaid, Intent: journal.Intent{ExpiresAt: expires}}}
	settled.Seed(&f)
	if f.Outcome().Name != LabelExpired || f.Payout() != PayoutNotPaid {
		t.Fatalf("settled never paid, then not found: %+v, payout %v; want EXPIRED", f.Outcome(), f.Payout())
	}

	// A kept not found of it is asked again: it was not read by this rule.
	s := NewScheduler(10)
	s.Know(own)
	s.AddKept(Kept{QuoteID: "q-1", NotFound: true}, expires)
	if got, _ := s.Get("q-1"); got.Final || got.NotFound || !got.Vanished || s.Moving() != 1 {
		t.Fatalf("kept not found: final %v, not found %v, vanished %v; want asked again", got.Final, got.NotFound, got.Vanished)
	}

	// Not found before the journal was read: told it, it is asked again.
	s = NewScheduler(10)
	s.Add("q-1", expires)
	s.Answer("q-1", exchange.Withdrawal{QuoteID: "q-1", ServiceTime: expires}, exchange.ErrNotFound, expires)
	if got, _ := s.Get("q-1"); !got.Final || s.Moving() != 0 {
		t.Fatalf("not found of an id not known own: final %v, %d moving", got.Final, s.Moving())
	}
	s.Know(own)
	if got, _ := s.Get("q-1"); got.Final || got.NotFound || !got.Vanished || s.Moving() != 1 {
		t.Fatalf("told it own and unanswered: final %v, not found %v, vanished %v; want asked again", got.Final, got.NotFound, got.Vanished)
	}

	// Another's id is not found for good.
	g := Follow{QuoteID: "q-1"}
	Own{}.Seed(&g)
	g.Answer(exchange.Withdrawal{QuoteID: "q-1", ServiceTime: expires}, exchange.ErrNotFound, time.Second, nil)
	if !g.Final || !g.NotFound || g.Outcome().Name != LabelNotFound {
		t.Fatalf("another's: final %v, outcome %+v; want NOT FOUND", g.Final, g.Outcome())
	}
	// A request of this account's the journal holds refused, or never
	// sent, is said as the journal knows it, never paid: not NOT FOUND.
	for _, r := range []journal.Record{{Error: "limit reached"}, {Error: "no route to host", NotSent: true}} {
		r.QuoteID, r.Made, r.Answered, r.Intent = "q-1", true, true, journal.Intent{ExpiresAt: expires}
		g := Follow{QuoteID: "q-1"}
		Own{"q-1": r}.Seed(&g)
		g.Answer(exchange.Withdrawal{QuoteID: "q-1", ServiceTime: expires}, exchange.ErrNotFound, time.Second, nil)
		o := g.Outcome()
		if want := RecordOutcome(r); !g.Final || o.Name != want.Name || o.Reason != r.Error || g.Payout() != PayoutNotPaid || !g.NeverExecuted() {
			t.Fatalf("journaled %s, then not found: final %v, outcome %+v, payout %v; want %s, not paid", want.Name, g.Final, o, g.Payout(), want.Name)
		}
		if r.NotSent == strings.Contains(o.Words, "the service does not know this quote id") {
			t.Errorf("%s: %q; want whose refusal it is said of a refusal alone", o.Name, o.Words)
		}
	}

	// No expiry journaled: never called, and said so.
	g = Follow{QuoteID: "q-2"}
	Own{"q-2": {QuoteID: "q-2", Made: true}}.Seed(&g)
	g.Answer(exchange.Withdrawal{QuoteID: "q-2", ServiceTime: expires.Add(time.Hour)}, exchange.ErrNotFound, time.Second, nil)
	if g.Final || !g.Vanished || !strings.Contains(g.Outcome().Words, "expiry is not in this machine's journal") {
		t.Fatalf("no expiry: final %v, outcome %+v; want asked again", g.Final, g.Outcome())
	}
}
