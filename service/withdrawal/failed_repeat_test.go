package withdrawal_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestRepeatOfAFailedWithdrawalWarned: a withdrawal that ended FAILED was
// debited and is not returned until support does, so an identical one
// made within FailedRepeat is warned about (its quote id, when, that its
// funds stay debited, that this one pays again), read from the journal's
// finished withdrawals too; it is not refused, and the warning ends with
// the window. Another amount is another withdrawal.
func TestRepeatOfAFailedWithdrawalWarned(t *testing.T) {
	r := newRig(t, 0, false)
	c := r.choice(sandbox.DestFailed, "25")
	w := r.withdrawer()
	sent := w.Execute(context.Background(), r.order(c), demoKey)
	if sent.Err != nil {
		t.Fatal(sent.Err)
	}
	id := sent.Accepted.QuoteID
	r.advance(time.Minute)
	wd, err := r.client.WithdrawalStatus(context.Background(), id)
	if err != nil || wd.State != exchange.StateFailed {
		t.Fatalf("status %+v (%v): want FAILED", wd, err)
	}
	if err := w.JournalState(id, wd); err != nil {
		t.Fatal(err)
	}

	rep, err := w.Repeats(c)
	if err != nil || rep.Failed == nil || rep.Failed.QuoteID != id || rep.Recent != nil || rep.Unanswered != nil {
		t.Fatalf("Repeats = %+v, %v; want the FAILED %s alone", rep, err, id)
	}
	words := rep.FailedWords(r.local.Now())
	for _, want := range []string{"An identical withdrawal of 25 USDT to " + sandbox.DestFailed + " on ARBITRUM (" + id + "), made 1m ago (",
		"ended FAILED: its funds stay debited until support returns them, and this one pays again"} {
		if !strings.Contains(words, want) {
			t.Errorf("FailedWords %q lacks %q", words, want)
		}
	}
	if brief := rep.FailedBrief(r.local.Now()); brief != "identical "+id+" FAILED 1m ago, debited until support returns it: this one pays again" {
		t.Errorf("FailedBrief %q", brief)
	}
	other := c
	if other.Amount = decimal.RequireFromString("24"); mustRepeats(t, w, other).Failed != nil {
		t.Error("24 USDT taken for a repeat of a FAILED 25")
	}
	before := r.ex.Balance(sandbox.DemoAccountID)
	if again := w.Execute(context.Background(), r.order(c), demoKey); again.Err != nil {
		t.Fatalf("the repeat of a FAILED one was refused: %v", again.Err)
	}
	if paid := before.Sub(r.ex.Balance(sandbox.DemoAccountID)); !paid.Equal(decimal.RequireFromString("25")) {
		t.Errorf("the repeat paid %s, want 25", paid)
	}
	r.advance(withdrawal.FailedRepeat)
	if rep := mustRepeats(t, w, c); rep.Failed != nil {
		t.Errorf("a FAILED one made over FailedRepeat ago still warned of: %s", rep.Failed.QuoteID)
	}
}

func mustRepeats(t *testing.T, w withdrawal.Withdrawer, c withdrawal.Choice) withdrawal.Repeat {
	t.Helper()
	rep, err := w.Repeats(c)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFindRepeatFailed: only a FAILED one is kept debited; one REFUNDED
// or COMPLETED within FailedRepeat is no warning of its own, nor a FAILED
// one made before the window: one made FailedRepeat ago is in it.
func TestFindRepeatFailed(t *testing.T) {
	now := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	c := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: exchange.WithdrawalRoute{Chain: "BASE"}, ToAddress: sandbox.DestFailed, Amount: decimal.RequireFromString("14")}
	for state, found := range map[string]bool{exchange.StateFailed: true, exchange.StateRefunded: false, exchange.StateCompleted: false} {
		rec := journal.Record{QuoteID: "q-1", Made: true, Answered: true, State: state, Started: now.Add(-time.Hour),
			Intent: journal.Intent{ToAddress: sandbox.DestFailed, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", PayAmount: c.Amount}}
		if got := withdrawal.FindRepeat([]journal.Record{rec}, c, now); (got.Failed != nil) != found || got.Recent != nil {
			t.Errorf("%s an hour ago: %+v, want found %v", state, got, found)
		}
		if rec.Started = now.Add(-withdrawal.FailedRepeat); (withdrawal.FindRepeat([]journal.Record{rec}, c, now).Failed != nil) != found {
			t.Errorf("%s made FailedRepeat ago: found %v, want %v", state, !found, found)
		}
		if rec.Started = now.Add(-withdrawal.FailedRepeat - time.Nanosecond); withdrawal.FindRepeat([]journal.Record{rec}, c, now).Failed != nil {
			t.Errorf("%s made over FailedRepeat ago found", state)
		}
	}
}

// TestFailedRepeatWindowHasOneEdge: a FAILED withdrawal made exactly
// FailedRepeat ago is read from the journal (its index's pick) and warned
// of, and a nanosecond later neither: the window is computed once, so the
// journal never drops one the warning counts, nor keeps one it does not.
func TestFailedRepeatWindowHasOneEdge(t *testing.T) {
	r := newRig(t, 0, false)
	c := r.choice(sandbox.DestFailed, "25")
	w := r.withdrawer()
	sent := w.Execute(context.Background(), r.order(c), demoKey)
	if sent.Err != nil {
		t.Fatal(sent.Err)
	}
	r.advance(time.Minute)
	wd, err := r.client.WithdrawalStatus(context.Background(), sent.Accepted.QuoteID)
	if err != nil || wd.State != exchange.StateFailed {
		t.Fatalf("status %+v (%v): want FAILED", wd, err)
	}
	if err := w.JournalState(sent.Accepted.QuoteID, wd); err != nil {
		t.Fatal(err)
	}
	made := mustRepeats(t, w, c).Failed
	if made == nil {
		t.Fatal("the FAILED one is not warned of a minute on")
	}
	r.local.Advance(made.Started.Add(withdrawal.FailedRepeat).Sub(r.local.Now()))
	for _, c2 := range []struct {
		after time.Duration
		in    bool
	}{{0, true}, {time.Nanosecond, false}} {
		r.local.Advance(c2.after)
		now := r.local.Now()
		recs, _, err := withdrawal.RepeatRecords(r.journal, journal.SessionOwner(r.client), now)
		if err != nil {
			t.Fatal(err)
		}
		read := len(recs) == 1 && recs[0].QuoteID == made.QuoteID
		warned := mustRepeats(t, w, c).Failed != nil
		if read != c2.in || warned != c2.in {
			t.Errorf("made %v ago: read from the journal %v, warned of %v; want %v", now.Sub(made.Started), read, warned, c2.in)
		}
	}
}
