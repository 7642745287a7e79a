package follow

import (
	"context"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestKeptClockAtTheMarginsEdge: a reading of the service's clock kept from
// before an answer (ServiceTimeKept) never decides that a quote can no
// longer execute. Our clock drifts ahead of the service's: the kept
// reading says a second past the margin while the service's clock, read
// again after the answer (Reread), is at its edge; the withdrawal stays
// NOT FOUND YET, pending. A second later by the service's own clock it is
// EXPIRED. Without Reread the kept reading only puts it off; a reading
// that says the quote may still execute asks nothing more; the loop's
// plan reads again too (Run), and a CREATED record is held so as well.
func TestKeptClockAtTheMarginsEdge(t *testing.T) {
	expires := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	edge := expires.Add(ExecutableMargin)
	own := Own{"q-1": {QuoteID: "q-1", Made: true, Intent: journal.Intent{ExpiresAt: expires}}}
	var kept, service time.Time // the kept reading's estimate, the service's clock read again
	rereads := 0
	newLoop := func(reread bool) Loop {
		s := NewScheduler(10)
		s.Know(own)
		s.Add("q-1", expires)
		l := Loop{Scheduler: s, Now: func() time.Time { return edge }, Once: true,
			Ask: func(context.Context, string) (exchange.Withdrawal, error) {
				return exchange.Withdrawal{QuoteID: "q-1", ServiceTime: kept, ServiceTimeKept: true}, exchange.ErrNotFound
			},
			Wait: func(context.Context, time.Duration) error { return nil }}
		if reread {
			l.Reread = func(_ context.Context, w exchange.Withdrawal) exchange.Withdrawal {
				rereads++
				w.ServiceTime, w.ServiceTimeKept = service, false
				return w
			}
		}
		return l
	}
	ask := func(l Loop) Seen {
		t.Helper()
		f, _ := l.Get("q-1")
		w, err := l.AskOf(context.Background(), f.Follow)
		return l.Took("q-1", w, err)
	}

	kept, service = edge.Add(time.Second), edge // drifted: ours a second ahead
	seen := ask(newLoop(true))
	if rereads != 1 || seen.Final || seen.Outcome().Name != LabelNotFoundYet || seen.Payout() != PayoutPending {
		t.Fatalf("kept past, service at the edge: %d rereads, final %v, %s, payout %v; want read again once, NOT FOUND YET, pending", rereads, seen.Final, seen.Outcome().Name, seen.Payout())
	}
	service = edge.Add(time.Second)
	if seen := ask(newLoop(true)); rereads != 2 || !seen.Final || seen.Outcome().Name != LabelExpired || seen.Payout() != PayoutNotPaid {
		t.Fatalf("service a second past the edge: %d rereads, final %v, %s; want EXPIRED, not paid", rereads, seen.Final, seen.Outcome().Name)
	}
	if seen := ask(newLoop(false)); rereads != 2 || seen.Final || seen.Outcome().Name != LabelNotFoundYet {
		t.Fatalf("kept past, no Reread: final %v, %s; want NOT FOUND YET, decided on no kept reading", seen.Final, seen.Outcome().Name)
	}
	kept = edge
	if seen := ask(newLoop(true)); rereads != 2 || seen.Final || seen.Outcome().Name != LabelNotFoundYet {
		t.Fatalf("kept at the edge: %d rereads, %s; want none asked, NOT FOUND YET", rereads, seen.Outcome().Name)
	}

	// Through the loop's plan, whose asks touch no scheduler.
	kept, service = edge.Add(time.Second), edge.Add(time.Second)
	l := newLoop(true)
	var last Seen
	if err := l.Run(context.Background(), func(s Seen) bool { last = s; return true }); err != nil {
		t.Fatal(err)
	}
	if rereads != 3 || last.Outcome().Name != LabelExpired {
		t.Fatalf("Run: %d rereads, %s; want read again, EXPIRED", rereads, last.Outcome().Name)
	}

	// A CREATED record on a kept reading past the margin: not expired.
	f := Follow{QuoteID: "q-1"}
	own.Seed(&f)
	step := f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCreated, UpdatedAt: expires, ServiceTime: edge.Add(time.Second), ServiceTimeKept: true}, nil, time.Second, nil)
	if f.Final || f.ExpiredUnexecuted() || f.Payout() != PayoutPending || step.JournalState != "" {
		t.Fatalf("CREATED on a kept reading past the margin: final %v, payout %v, journal %q; want pending, nothing journaled", f.Final, f.Payout(), step.JournalState)
	}
	// Read after the answer past the margin: EXPIRED, journaled never paid.
	step = f.Answer(exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateCreated, UpdatedAt: expires, ServiceTime: edge.Add(time.Second)}, nil, time.Second, nil)
	if !f.Final || f.Outcome().Name != LabelExpired || step.JournalState != LabelExpired {
		t.Fatalf("CREATED read past the margin: final %v, %s, journal %q; want EXPIRED journaled", f.Final, f.Outcome().Name, step.JournalState)
	}
}
