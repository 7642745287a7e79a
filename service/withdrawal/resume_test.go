package withdrawal_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// lostWithdrawal executes a 25 USDT withdrawal whose every attempt a
// gateway holds (the first is kept, to deliver later) and answers 502: it
// is journaled and unanswered. It returns its order and record.
func (r *rig) lostWithdrawal() (withdrawal.Order, journal.Record) {
	r.t.Helper()
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	r.holding.Store(true)
	sent := r.withdrawer().Execute(context.Background(), o, demoKey)
	if sent.Lost == nil {
		r.t.Fatalf("every attempt held, yet: %+v", sent)
	}
	return o, r.record(o.Quote.QuoteID)
}

// record is the journal's record of quoteID.
func (r *rig) record(quoteID string) journal.Record {
	r.t.Helper()
	recs, err := r.journal.Records()
	if err != nil {
		r.t.Fatal(err)
	}
	for _, rec := range recs {
		if rec.QuoteID == quoteID {
			return rec
		}
	}
	r.t.Fatalf("no record of %s", quoteID)
	return journal.Record{}
}

// guarded reports whether an identical withdrawal is still refused.
func (r *rig) guarded(o withdrawal.Order) bool {
	r.t.Helper()
	rep, err := r.withdrawer().Repeats(o.Choice)
	if err != nil {
		r.t.Fatal(err)
	}
	return rep.Unanswered != nil
}

// TestResumeWithTheLocalClockAhead is the attack of issue 25: the local
// clock 75 s ahead of the service's (inside the skew tolerated for
// signing), a withdrawal whose first attempt a gateway holds and whose
// retries get 502. By the local clock its quote expired more than 10 s
// ago; by the service's it is valid. Settling it then must not call it
// never paid: the held request, delivered late, executes, and settling
// afterwards follows it. One debit.
func TestResumeWithTheLocalClockAhead(t *testing.T) {
	r := newRig(t, 75*time.Second, false)
	start := r.ex.Balance(sandbox.DemoAccountID)
	o, rec := r.lostWithdrawal()
	expiry := o.Quote.ExpiresAt
	if !r.local.Now().After(expiry.Add(10*time.Second)) || !r.service.Now().Before(expiry) {
		t.Fatalf("local %s, service %s, expiry %s: the attack needs the quote expired by the local clock only", r.local.Now(), r.service.Now(), expiry)
	}
	w := r.withdrawer()
	if s := w.Settle(context.Background(), rec); s.Outcome != withdrawal.SettledLost {
		t.Fatalf("settled %+v while the gateway holds every request; want no answer", s)
	}
	if got := r.record(rec.QuoteID); got.Answered || !r.guarded(o) {
		t.Fatalf("journal %+v: the record must stay unanswered and the repeat guard hold", got)
	}

	r.holding.Store(false)
	if code := r.deliver(); code != http.StatusAccepted {
		t.Fatalf("the held request, delivered while its quote is valid: %d", code)
	}
	r.at(expiry.Add(30 * time.Second))
	if s := w.Settle(context.Background(), rec); s.Outcome != withdrawal.SettledArrived {
		t.Fatalf("settled %+v, want the request that arrived followed", s)
	}
	if got := r.ex.Balance(sandbox.DemoAccountID); !got.Equal(start.Sub(o.Quote.PayAmount)) {
		t.Errorf("balance %s from %s: want one debit", got, start)
	}
	if got := r.record(rec.QuoteID); got.Finished() {
		t.Errorf("journal %+v: a paid withdrawal recorded as never happened", got)
	}
}

// TestNeverPaidOnlyPastTheMargin: whatever the local clock says (75 s or
// 6 minutes ahead: resume signs nothing, so no skew check stops it), an
// unanswered request the service does not know (404) or has not executed
// (CREATED) is settled as never paid only once the service's clock, read
// for the decision, is past the quote's expiry and the margin; before,
// nothing is journaled, the repeat guard holds, and the fact says until
// when. Without the service's time nothing is decided.
func TestNeverPaidOnlyPastTheMargin(t *testing.T) {
	for _, ahead := range []time.Duration{75 * time.Second, 6 * time.Minute} {
		t.Run(ahead.String(), func(t *testing.T) {
			r := newRig(t, 0, false)
			o, rec := r.lostWithdrawal()
			unknown := rec
			unknown.QuoteID, unknown.Request.QuoteID = "q-never-reached-the-service", "q-never-reached-the-service"
			r.local.Set(r.service.Now().Add(ahead))
			expiry, w := o.Quote.ExpiresAt, r.withdrawer()

			// Within the margin, up to its last instant, nothing is decided.
			for _, past := range []time.Duration{30 * time.Second, follow.ExecutableMargin} {
				r.at(expiry.Add(past))
				for _, x := range []journal.Record{rec, unknown} {
					s := w.Settle(context.Background(), x)
					if s.Outcome != withdrawal.SettledUndecided || !s.Until.Equal(expiry.Add(follow.ExecutableMargin)) || s.Err != nil ||
						!strings.Contains(s.Fact(), "cannot be told yet") || !strings.Contains(s.Fact(), s.Until.UTC().Format("15:04:05")) {
						t.Fatalf("%s %s past the expiry, within the margin: %+v (%s)", x.QuoteID, past, s, s.Fact())
					}
				}
			}
			if got := r.record(rec.QuoteID); got.Answered || !r.guarded(o) {
				t.Fatalf("journal %+v: the record must stay unanswered and the repeat guard hold", got)
			}

			r.at(expiry.Add(follow.ExecutableMargin + time.Second))
			// The time unknown, the identical request is re-sent (the
			// service refuses it as expired), then the status is asked.
			r.holding.Store(false)
			r.timeDown.Store(true)
			if s := w.Settle(context.Background(), rec); s.Outcome != withdrawal.SettledUndecided || s.Err == nil || !strings.Contains(s.Fact(), "the service's time could not be read") {
				t.Fatalf("without the service's time: %+v (%s)", s, s.Fact())
			}
			if got := r.record(rec.QuoteID); got.Answered {
				t.Fatalf("journal %+v: decided without the service's time", got)
			}
			r.timeDown.Store(false)

			for _, x := range []journal.Record{rec, unknown} {
				if s := w.Settle(context.Background(), x); s.Outcome != withdrawal.SettledNeverHappened || s.Why != withdrawal.NeverPaid || s.JournalErr != nil {
					t.Fatalf("%s past the margin: %+v", x.QuoteID, s)
				}
			}
			if got := r.record(rec.QuoteID); !got.Finished() || !got.QuoteExpired || r.guarded(o) {
				t.Fatalf("journal %+v: want never paid, the guard lifted", got)
			}
		})
	}
}

// TestNeverPaidNotOnATimeFarAhead: a /time answer far ahead of both clocks
// (a glitching host, a unit mistake) decides nothing: "never paid" waits
// until the local clock too is past the quote's expiry and the margin, so
// the held request that then executes is the only debit. A local clock
// behind the service's only puts the decision off.
func TestNeverPaidNotOnATimeFarAhead(t *testing.T) {
	r := newRig(t, 0, false)
	o, rec := r.lostWithdrawal()
	expiry, w := o.Quote.ExpiresAt, r.withdrawer()
	r.timeAhead.Store(int64(24 * time.Hour))
	r.at(expiry.Add(30 * time.Second))
	if s := w.Settle(context.Background(), rec); s.Outcome != withdrawal.SettledUndecided {
		t.Fatalf("/time a day ahead, 30 s past the expiry: %+v (%s)", s, s.Fact())
	}
	if got := r.record(rec.QuoteID); got.Answered || !r.guarded(o) {
		t.Fatalf("journal %+v: the record must stay unanswered and the repeat guard hold", got)
	}
	r.timeAhead.Store(0)
	r.local.Set(expiry.Add(-time.Minute))
	r.advance(follow.ExecutableMargin)
	if s := w.Settle(context.Background(), rec); s.Outcome != withdrawal.SettledUndecided {
		t.Fatalf("the service past the margin, the local clock not: %+v (%s)", s, s.Fact())
	}
	r.advance(2 * time.Minute)
	if s := w.Settle(context.Background(), rec); s.Outcome != withdrawal.SettledNeverHappened {
		t.Fatalf("both clocks past the margin: %+v (%s)", s, s.Fact())
	}

	// The clock read again after a re-send the service refused: the local
	// clock a little behind, so the request is re-sent, refused as expired,
	// and then /time answers a day ahead.
	r = newRig(t, -100*time.Second, false)
	o, rec = r.lostWithdrawal()
	r.holding.Store(false)
	r.at(o.Quote.ExpiresAt.Add(time.Minute))
	r.timeAhead.Store(int64(24 * time.Hour))
	if s := r.withdrawer().Settle(context.Background(), rec); s.Outcome != withdrawal.SettledUndecided {
		t.Fatalf("after a refused re-send, /time a day ahead, a minute past the expiry: %+v (%s)", s, s.Fact())
	}
}
