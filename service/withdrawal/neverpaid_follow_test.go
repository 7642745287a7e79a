package withdrawal_test

import (
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestFollowerJournalsNeverPaidOnlyPastTheMargin: a follower's not found
// or CREATED record of an unanswered request (follow.Step.JournalState
// EXPIRED) is journaled never paid, as withdraw resume journals it, only
// on the service's clock read after the answer past the quote's expiry
// and the margin: not at the margin's edge, not on a kept reading, once.
func TestFollowerJournalsNeverPaidOnlyPastTheMargin(t *testing.T) {
	r := newRig(t, 0, false)
	o, rec := r.lostWithdrawal()
	r.holding.Store(false)
	edge := rec.Intent.ExpiresAt.Add(follow.ExecutableMargin)
	for _, wd := range []exchange.Withdrawal{
		{QuoteID: rec.QuoteID, ServiceTime: edge},
		{QuoteID: rec.QuoteID, ServiceTime: edge.Add(time.Second), ServiceTimeKept: true},
		{QuoteID: rec.QuoteID},
		{QuoteID: rec.QuoteID, State: exchange.StateCreated, ServiceTime: edge},
		{QuoteID: rec.QuoteID, State: exchange.StateCreated, ServiceTime: edge.Add(time.Second), ServiceTimeKept: true},
	} {
		if err := r.withdrawer().JournalState(rec.QuoteID, wd); err != nil {
			t.Fatal(err)
		}
		if got := r.record(rec.QuoteID); !got.Unanswered() {
			t.Fatalf("at %s (kept %v): journaled %+v; want it unanswered still", wd.ServiceTime, wd.ServiceTimeKept, got.Error)
		}
	}
	// A 404 past the margin, then a CREATED record: written once.
	past := exchange.Withdrawal{QuoteID: o.Quote.QuoteID, ServiceTime: edge.Add(time.Second)}
	for _, state := range []string{"", exchange.StateCreated} {
		past.State = state
		if err := r.withdrawer().JournalState(rec.QuoteID, past); err != nil {
			t.Fatal(err)
		}
	}
	got := r.record(rec.QuoteID)
	if got.Unanswered() || !got.QuoteExpired || got.Error != journal.NeverPaid {
		t.Fatalf("past the margin: answered %v, quote expired %v, %q; want never paid", got.Answered, got.QuoteExpired, got.Error)
	}
	entries, err := r.journal.Entries()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.QuoteID == rec.QuoteID && e.Kind == journal.KindRejected {
			n++
		}
	}
	if n != 1 {
		t.Errorf("never paid journaled %d times, want once", n)
	}
}
