package plain

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
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
