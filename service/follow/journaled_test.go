package follow_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestJournaled: while the journal is as it was at a mark nothing is read;
// once another process wrote to it, what it gained is the whole record of
// each id its new lines name, the intent written before the mark joined
// to the state after it, and a scheduler that learns it tells the id's
// follow, as opening the board again did.
func TestJournaled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	o := journal.Owner{Env: "sandbox", AccountID: "acct-1"}
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	req := &exchange.WithdrawRequest{QuoteID: "q-mine", Signature: exchange.WithdrawSignature{
		Signer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", R: "0x" + strings.Repeat("1", 64), S: "0x" + strings.Repeat("2", 64),
		V: 27, Nonce: 7, Expiration: "1772445600000000000", ChainID: 327}}
	if err := j.Append(journal.Entry{Time: t0, Env: o.Env, AccountID: o.AccountID, Kind: journal.KindIntent, QuoteID: "q-mine", Request: req}); err != nil {
		t.Fatal(err)
	}
	mark, err := j.Mark()
	if err != nil {
		t.Fatal(err)
	}
	if recs, m, err := follow.Journaled(j, o, mark); recs != nil || !m.Same(mark) || err != nil {
		t.Fatalf("an unchanged journal gave %v, %v", recs, err)
	}
	other, err := journal.Open(path) // another process's
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Append(journal.Entry{Time: t0.Add(time.Minute), Env: o.Env, AccountID: o.AccountID, Kind: journal.KindState, QuoteID: "q-mine", State: exchange.StateCompleted}); err != nil {
		t.Fatal(err)
	}
	recs, next, err := follow.Journaled(j, o, mark)
	if err != nil || len(recs) != 1 || recs[0].QuoteID != "q-mine" || !recs[0].Made || recs[0].State != exchange.StateCompleted || next.Same(mark) {
		t.Fatalf("after another process's state: %+v, %v", recs, err)
	}
	if again, _, _ := follow.Journaled(j, o, next); again != nil {
		t.Errorf("read again from the new mark: %+v", again)
	}
	s := follow.NewScheduler(5)
	s.Recall = true
	s.Add("q-mine", t0)
	if told := s.Learn(recs); len(told) != 1 {
		t.Fatalf("learned %v", told)
	}
	if f, _ := s.Get("q-mine"); !f.Own || f.Last.State != exchange.StateCompleted {
		t.Errorf("the follow after learning: own %v, state %s", f.Own, f.Last.State)
	}
}
