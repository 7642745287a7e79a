package follow_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestRefusedHereIsFinal: a quote whose execute this account's journal saw
// the service refuse, and which the service still reports CREATED (never
// executed), is REFUSED with the journal's reason and words saying whose
// the refusal is, not paid, and asked once: the one loop every face runs
// stops there; one the journal saw never leave is NOT SENT. Another's id,
// or one the journal saw accepted, is neither. The record of an own one
// names the account that made it (account_id: status, the board's export).
func TestRefusedHereIsFinal(t *testing.T) {
	reason := "Address screening flagged the destination: the withdrawal was refused; contact support"
	own := follow.Own{
		"refused":  {QuoteID: "refused", AccountID: "acct-1", Made: true, Answered: true, Error: reason},
		"not sent": {QuoteID: "not sent", Made: true, Answered: true, NotSent: true, Error: "Cannot reach api.example (connection refused)"},
		"expired":  {QuoteID: "expired", Made: true, Answered: true, Error: journal.NeverPaid, QuoteExpired: true},
		"accepted": {QuoteID: "accepted", Made: true, Answered: true, State: exchange.StateSubmitted, AcceptedAt: time.Date(2026, 3, 14, 8, 0, 0, 0, time.UTC)},
		// The service beats the journal: a refusal journaled here is only
		// the service's word while it says CREATED of one never accepted.
		"refused, submitted": {QuoteID: "refused, submitted", Made: true, Answered: true, Error: reason},
		"refused, completed": {QuoteID: "refused, completed", Made: true, Answered: true, NotSent: true, Error: reason},
		"accepted, refused":  {QuoteID: "accepted, refused", Made: true, Answered: true, Error: reason, AcceptedAt: time.Date(2026, 3, 14, 8, 0, 0, 0, time.UTC)},
	}
	s := &script{now: time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC), answers: map[string][]error{},
		states: map[string][]string{"refused": {exchange.StateCreated}, "not sent": {exchange.StateCreated}, "expired": {exchange.StateCreated},
			"accepted": {exchange.StateCreated}, "another": {exchange.StateCreated},
			"refused, submitted": {exchange.StateSubmitted}, "refused, completed": {exchange.StateCompleted}, "accepted, refused": {exchange.StateCreated}}}
	sched := follow.NewScheduler(5)
	sched.Know(own)
	for _, id := range []string{"refused", "not sent", "expired", "accepted", "another", "refused, submitted", "refused, completed", "accepted, refused"} {
		sched.Add(id, s.now)
	}
	l := s.loop(sched)
	seen := map[string]follow.Seen{}
	asks := map[string]int{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_ = l.Run(ctx, func(x follow.Seen) bool {
		seen[x.QuoteID], asks[x.QuoteID] = x, asks[x.QuoteID]+1
		// Only the refused one is run to its end here (three asks at
		// most): the others stay CREATED until their quotes expire.
		return (x.QuoteID == "refused" || x.QuoteID == "not sent") && asks[x.QuoteID] < 3
	})
	r := seen["refused"]
	o := r.Outcome()
	if !r.Done || !r.Final || asks["refused"] != 1 || o.Name != follow.LabelRefused || o.Reason != reason ||
		!strings.Contains(o.Words, "This machine's journal holds the refusal") || r.Payout() != follow.PayoutNotPaid {
		t.Errorf("refused here: done %v final %v after %d asks, %+v, payout %v", r.Done, r.Final, asks["refused"], o, r.Payout())
	}
	if rec := r.Record("local", own["refused"]); rec.Outcome != follow.LabelRefused || rec.State != exchange.StateCreated ||
		rec.Error != reason || !strings.HasSuffix(rec.Meaning, "Reason: "+reason+".") || !rec.Finished || rec.AccountID != "acct-1" {
		t.Errorf("its record: %+v", rec)
	}
	// One that never left is NOT SENT, as final, never the service's refusal.
	if x := seen["not sent"]; !x.Final || x.Outcome().Name != follow.LabelNotSent || strings.Contains(x.Outcome().Words, "refused") {
		t.Errorf("not sent: final %v, %+v", x.Final, x.Outcome())
	}
	for id, want := range map[string]string{"refused, submitted": exchange.StateSubmitted, "refused, completed": exchange.StateCompleted, "accepted, refused": follow.LabelContradicts} {
		x := seen[id]
		if x.Outcome().Name != want || x.Final != exchange.Terminal(want) || x.Payout() == follow.PayoutNotPaid {
			t.Errorf("%s: %+v, final %v, payout %v; want %s", id, x.Outcome(), x.Final, x.Payout(), want)
		}
	}
	for _, id := range []string{"expired", "accepted", "another"} {
		if x := seen[id]; x.Final || x.Outcome().Name == follow.LabelRefused {
			t.Errorf("%s: final %v, %s", id, x.Final, x.Outcome().Name)
		}
	}
}
