package journal

import (
	"path/filepath"
	"testing"
	"time"
)

// TestOwnerHoldsAnyCaseOfItsAddress: a record journaled with the account
// id the service answered in one letter case is the account's when it
// answers another case of the same address (exchange.SameAccountID): it
// was hidden. An opaque id is still compared exactly.
func TestOwnerHoldsAnyCaseOfItsAddress(t *testing.T) {
	o := Owner{Env: "local", AccountID: "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5"}
	rec := Record{QuoteID: "q-1", Env: "local", AccountID: "0x5F1C2E9A3B7D4C1308A6E2F9B0C4D7E1A2B3C4D5"}
	if !o.Holds(rec) || !o.mayHold(Entry{AccountID: rec.AccountID}) {
		t.Errorf("the account's own record, journaled in another letter case, is not its own")
	}
	if (Owner{Env: "local", AccountID: "acct-a"}).Holds(Record{Env: "local", AccountID: "ACCT-A"}) {
		t.Errorf("an opaque account id folded: another account's record taken for its own")
	}
}

// TestOneRecordInAnyCaseOfItsAddress: a withdrawal's lines are one record
// whichever letter case of the account's address each names (an intent
// journaled as the service answered then, its acceptance as a settle's
// session answered later), and the look-up by quote id finds it as either
// case. Keyed by the id exactly, the acceptance began a record of its own,
// the intent stayed unanswered, and a look-up in the other case found none.
func TestOneRecordInAnyCaseOfItsAddress(t *testing.T) {
	const lower, upper = "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5", "0x5F1C2E9A3B7D4C1308A6E2F9B0C4D7E1A2B3C4D5"
	j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, e := range []Entry{genIntent("local", upper, "q-1", 1, at), {Time: at.Add(time.Second), Kind: KindAccepted, Env: "local", AccountID: lower, QuoteID: "q-1", TxID: "tx-1"},
		genIntent("local", "acct-a", "q-2", 2, at), {Time: at.Add(time.Second), Kind: KindAccepted, Env: "local", AccountID: "ACCT-A", QuoteID: "q-2"}} {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := j.Records()
	if err != nil {
		t.Fatal(err)
	}
	var q1, q2 []Record
	for _, r := range recs {
		if r.QuoteID == "q-1" {
			q1 = append(q1, r)
		} else {
			q2 = append(q2, r)
		}
	}
	if len(q1) != 1 || !q1[0].Answered || len(q2) != 2 {
		t.Fatalf("one withdrawal in two cases of its address: %d records, want 1, answered; an opaque id's two cases: %d, want 2\n%+v", len(q1), len(q2), recs)
	}
	for _, as := range []string{lower, upper} {
		if recs, err := j.RecordsOf(Owner{Env: "local", AccountID: as}, "q-1"); err != nil || len(recs) != 1 || !recs[0].Answered {
			t.Errorf("looked up as %s: %+v %v", as, recs, err)
		}
	}
}
