package withdrawal_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestSettledAsItsAccountInAnyCase: a withdrawal journaled with the
// account id in one letter case of its address is the session's own when
// the service answers another case (exchange.SameAccountID): it is settled,
// not refused as another account's, and its answer is journaled in the
// record's own case, so the record is answered: written in the session's,
// it began a record of its own and left the intent unanswered.
func TestSettledAsItsAccountInAnyCase(t *testing.T) {
	r := newRig(t, 0, false)
	r.lostWithdrawal()
	r.holding.Store(false)
	entries, err := r.journal.Entries()
	if err != nil {
		t.Fatal(err)
	}
	upper := "0x" + strings.ToUpper(sandbox.DemoAccountID[2:])
	if r.journal, err = journal.Open(filepath.Join(t.TempDir(), "journal.jsonl")); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		e.AccountID = upper
		if err := r.journal.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := r.journal.Records()
	if err != nil || len(recs) != 1 || recs[0].Answered {
		t.Fatalf("the lost withdrawal journaled as %s: %+v %v", upper, recs, err)
	}
	if settled := r.withdrawer().Settle(context.Background(), recs[0]); settled.Outcome != withdrawal.SettledAccepted {
		t.Fatalf("journaled as %s, settled on %s's session: %+v", upper, sandbox.DemoAccountID, settled)
	}
	if recs, err = r.journal.Records(); err != nil || len(recs) != 1 || !recs[0].Answered {
		t.Errorf("the acceptance is not its record's (%v):\n%+v", err, recs)
	}
}
