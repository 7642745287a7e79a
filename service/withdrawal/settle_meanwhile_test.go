package withdrawal_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestSettleAskedOnlyAsItsAccount: a login as another account made while
// an unanswered withdrawal is settled, after its account was checked (the
// console's History resume in the background, a login on the same
// client), never has its status asked: that account's "not found" of a
// quote that is not its own was taken for never paid, and the withdrawal,
// delivered late and paid, was said to have never happened.
func TestSettleAskedOnlyAsItsAccount(t *testing.T) {
	r := newRig(t, 0, false)
	start := r.ex.Balance(sandbox.DemoAccountID)
	o, rec := r.lostWithdrawal()
	r.holding.Store(false)
	if code := r.deliver(); code != http.StatusAccepted {
		t.Fatalf("the held request delivered late: %d", code)
	}
	r.at(o.Quote.ExpiresAt.Add(follow.ExecutableMargin + time.Second))
	r.logInMeanwhile(t, exchange.PathTime)
	settled := r.withdrawer().Settle(context.Background(), rec)
	r.before.Store(nil)
	if settled.Outcome == withdrawal.SettledNeverHappened {
		t.Fatalf("settled as never happened (%s) on another account's session, while it was paid (%s debited)", settled.Why, start.Sub(r.ex.Balance(sandbox.DemoAccountID)))
	}
	if settled.Outcome != withdrawal.SettledUndecided {
		t.Fatalf("settled %+v; want undecided, nothing asked as the other account", settled)
	}
	if said := settled.Fact(); !strings.Contains(said, "cannot be told yet") || !strings.Contains(said, "a withdrawal taken up") {
		t.Fatalf("said %q", said)
	}
}

// TestAnswerJournaledAsTheAccountItWentAs: a withdraw request's answer is
// journaled as the account the request went as, sent or re-sent by Settle,
// even when a login as another landed on the same client while it was out:
// journaled as that one's, the acceptance left the withdrawal "no answer"
// in its own account's journal and showed it in the other's History.
func TestAnswerJournaledAsTheAccountItWentAs(t *testing.T) {
	for _, resent := range []bool{false, true} {
		r := newRig(t, 0, false)
		var o withdrawal.Order
		var rec journal.Record
		if resent {
			o, rec = r.lostWithdrawal()
			r.holding.Store(false)
		} else {
			o = r.order(r.choice(sandbox.DestCompleted, "25"))
		}
		r.logInMeanwhile(t, exchange.PathWithdraw)
		if resent {
			if settled := r.withdrawer().Settle(context.Background(), rec); settled.Outcome != withdrawal.SettledAccepted {
				t.Fatalf("re-sent: %+v", settled)
			}
		} else if sent := r.withdrawer().Execute(context.Background(), o, demoKey); sent.Err != nil {
			t.Fatal(sent.Err)
		}
		r.before.Store(nil)
		recs, err := r.journal.Records()
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs {
			if rec.QuoteID == o.Quote.QuoteID && (rec.AccountID != sandbox.DemoAccountID || rec.AcceptedAt.IsZero()) {
				t.Fatalf("re-sent %v: journaled %+v; want one record, %s's, accepted", resent, rec, sandbox.DemoAccountID)
			}
		}
	}
}

// TestNeverPaidJournaledAsTheAccountAsked: a withdrawal that never arrived,
// settled as never paid by its own account's status, is journaled so as
// that account's even when a login as another landed while the status was
// out: as the other's, its own record stayed unanswered and the other's
// History gained a withdrawal it never made.
func TestNeverPaidJournaledAsTheAccountAsked(t *testing.T) {
	r := newRig(t, 0, false)
	o, rec := r.lostWithdrawal()
	r.holding.Store(false)
	r.at(o.Quote.ExpiresAt.Add(follow.ExecutableMargin + time.Second))
	r.logInMeanwhile(t, exchange.PathWithdrawalStatus)
	settled := r.withdrawer().Settle(context.Background(), rec)
	r.before.Store(nil)
	if settled.Outcome != withdrawal.SettledNeverHappened {
		t.Fatalf("settled %+v; want never happened, by its own account's status", settled)
	}
	if got := r.record(rec.QuoteID); !got.Answered || got.AccountID != sandbox.DemoAccountID {
		t.Fatalf("journaled %+v; want %s's record answered", got, sandbox.DemoAccountID)
	}
}

// TestStateJournaledOnlyForItsAccount: a state a follower learned of one
// account's withdrawal (the board, the status screen, History's check) and
// journaled once a login as another landed on the same client is not
// written as that other account's: its History showed a withdrawal it
// never made, paid.
func TestStateJournaledOnlyForItsAccount(t *testing.T) {
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	if sent := r.withdrawer().Execute(context.Background(), o, demoKey); sent.Err != nil {
		t.Fatal(sent.Err)
	}
	if _, err := r.client.Login(context.Background(), exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
		t.Fatal(err)
	}
	learned := exchange.Withdrawal{QuoteID: o.Quote.QuoteID, State: exchange.StateCompleted}
	if err := r.withdrawer().JournalState(o.Quote.QuoteID, learned); err != nil {
		t.Fatal(err)
	}
	recs, err := r.journal.Records()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if rec.AccountID != sandbox.DemoAccountID {
			t.Fatalf("journaled %s's record of %s (%s)", rec.AccountID, rec.QuoteID, rec.State)
		}
	}
}

// logInMeanwhile logs the rig's client in as another account (the
// sandbox's second demo key) when the first request to path goes out,
// once, as a login in the console's background or on the same client
// would land; r.before.Store(nil) ends it.
func (r *rig) logInMeanwhile(t *testing.T, path string) {
	var once atomic.Bool
	meanwhile := func(req *http.Request) {
		if req.URL.Path == path && once.CompareAndSwap(false, true) {
			if _, err := r.client.Login(context.Background(), exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
				t.Error(err)
			}
		}
	}
	r.before.Store(&meanwhile)
}

// TestSettleLoggedOutSendsNothing: a settle begun with no session (the
// console's resume after its session ended, a client logged out) has no
// account to pin its requests to: it re-sent nothing, asked nothing and
// said the request "may or may not have arrived", or, once a login landed,
// asked as whichever account that was. It is refused, named, before any
// request leaves.
func TestSettleLoggedOutSendsNothing(t *testing.T) {
	r := newRig(t, 0, false)
	_, rec := r.lostWithdrawal()
	r.holding.Store(false)
	r.client.Logout()
	var asked atomic.Int64
	count := func(*http.Request) { asked.Add(1) }
	r.before.Store(&count)
	settled := r.withdrawer().Settle(context.Background(), rec)
	r.before.Store(nil)
	if settled.Outcome != withdrawal.SettledLoggedOut {
		t.Fatalf("settled %+v logged out; want SettledLoggedOut", settled)
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("%d requests went out with no session to pin them to", n)
	}
	if said := settled.Err.Error(); !strings.Contains(said, rec.QuoteID) || !strings.Contains(said, "log in as account "+sandbox.DemoAccountID) {
		t.Errorf("said %q; want the quote id and the account to log in as", said)
	}
	if got := r.record(rec.QuoteID); got.Answered {
		t.Errorf("journaled %+v; want it unanswered still", got)
	}
}
