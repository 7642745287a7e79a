package plain

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestOtherAccountsRecordSaysWhoToLogInAs: an unanswered withdrawal
// journaled as another account's than the session's is not taken up
// (withdrawal.SettledOtherAccount): plain mode says which account to log in
// as and where to take it up again, sends nothing, and never says whether
// it arrived cannot be told yet. History lists the session's account's
// withdrawals alone, so the record is handed to settle as it would be
// were the session to change under it.
func TestOtherAccountsRecordSaysWhoToLogInAs(t *testing.T) {
	r := newRig(t)
	r.noAnswer.Store(true)
	if _, err := r.run(steps(logIn, withdraw25, typed("y", "quit"))...); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	ctx := context.Background()
	s := &session{Console: r.console, p: NewPrompter(ctx, strings.NewReader(""), &out, nil), ctx: ctx, target: r.console.Targets[0]}
	logged, err := s.client().Login(ctx, exchange.APIKey(sandbox.DemoAPIKey))
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := r.journal.AccountRecords(journal.OwnerOf(r.env, logged.AccountID))
	if err != nil || len(recs) != 1 || !recs[0].Unanswered() {
		t.Fatalf("journaled %+v (%v), want one unanswered withdrawal", recs, err)
	}
	rec := recs[0]
	rec.AccountID = "acct-someone-else"
	r.noAnswer.Store(false)
	var withdraws atomic.Int32
	count := func() { withdraws.Add(1) }
	r.beforeWithdraw.Store(&count)
	if err := s.settle(rec); err != nil {
		t.Fatal(err)
	}
	want := "Not taken up: withdrawal " + rec.QuoteID + " was journaled as account acct-someone-else's, but this session is account " +
		logged.AccountID + "'s, so nothing was asked; log in as account acct-someone-else, then take it up again from History."
	if said := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(said, want) || strings.Contains(said, "cannot be told") {
		t.Errorf("said:\n%s\nwant %q", out.String(), want)
	}
	if n := withdraws.Load(); n != 0 {
		t.Errorf("%d withdraw requests on another account's session", n)
	}
}

// TestFollowEndsWhenTheLoginChanged: a follow asks only as the account it
// was started for; a login as another account landing on the same client
// while it follows ends it, saying whose withdrawals they are and who to
// log in as. Asked as the other account, whose service does not know the
// quote, it said NOT FOUND of a withdrawal on its way.
func TestFollowEndsWhenTheLoginChanged(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	var asks atomic.Int32
	other := func() {
		if asks.Add(1) == 2 { // the follow's first ask: the look-up's was the first
			if _, err := r.console.Targets[0].Client.Login(context.Background(), exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
				t.Error(err)
			}
		}
	}
	r.beforeStatus.Store(&other)
	out, err := r.run(steps(logIn, typed("look up", id, "Follow until the end"), []scripted{after("Stopped following", "quit")})...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Following "+id+" until it ends", "Stopped following: this withdrawal was followed as account "+sandbox.DemoAccountID+
		", and the login is now account "+sandbox.NoChainAccountID+"'s", "log in as account "+sandbox.DemoAccountID+" to follow it again.")
	if strings.Contains(out, follow.LabelNotFound) || asks.Load() != 2 {
		t.Errorf("%d status requests; asked as the account logged in meanwhile:\n%s", asks.Load(), out)
	}
}
