package journal_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestJournalKeepsFirstRequest: a second intent for the same quote never
// replaces the request that may have executed.
func TestJournalKeepsFirstRequest(t *testing.T) {
	j, err := journal.Open(filepath.Join(t.TempDir(), "j.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, nonce := range []uint32{1, 2} {
		req := journalRequest("q-1", nonce)
		if err := j.Append(journal.Entry{Time: time.Unix(int64(nonce), 0), Kind: journal.KindIntent, QuoteID: "q-1", Request: req}); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := j.Records()
	if err != nil || len(recs) != 1 || recs[0].Request.Signature.Nonce != 1 {
		t.Fatalf("records %+v, %v; want the first request (nonce 1)", recs, err)
	}
}

// TestJournalSentAgainAfterRefusal: an intent after a refusal, a request
// that never left or an expired quote is the quote sent again: the
// withdrawal is unanswered again, for every reader (the records, the
// index's unfinished ones, in this process and another), and
// its request is the later one, the only one that can have run.
func TestJournalSentAgainAfterRefusal(t *testing.T) {
	o := journal.Owner{Env: "sandbox", AccountID: "acct-1"}
	for name, refusal := range map[string]func(*journal.Entry){
		"not sent":      func(e *journal.Entry) { e.Error, e.NotSent = "Cannot reach api.example (connection refused)", true },
		"refused":       func(e *journal.Entry) { e.Error = "Address screening flagged the destination" },
		"quote expired": func(e *journal.Entry) { e.Error, e.QuoteExpired = exchange.QuoteExpiredWords, true },
	} {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		j, err := journal.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rejected := journal.Entry{Kind: journal.KindRejected}
		refusal(&rejected)
		lines := []journal.Entry{{Kind: journal.KindIntent, Request: journalRequest("q-1", 1)}, rejected,
			{Kind: journal.KindIntent, Request: journalRequest("q-1", 2)}}
		for i, e := range lines {
			e.Time, e.Env, e.AccountID, e.QuoteID = t0.Add(time.Duration(i)*time.Second), o.Env, o.AccountID, "q-1"
			lines[i] = e
			if err := j.Append(e); err != nil {
				t.Fatal(err)
			}
		}
		recs, err := j.Records()
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s: %+v, %v", name, recs, err)
		}
		if r := recs[0]; !r.Unanswered() || r.Finished() || r.NotSent || r.QuoteExpired || r.Error != "" || r.Request.Signature.Nonce != 2 {
			t.Errorf("%s: record %+v; want unanswered, with the later request (nonce 2)", name, r)
		}
		if r := journal.FoldRecords(lines); len(r) != 1 || !r[0].Unanswered() {
			t.Errorf("%s: folded %+v", name, r)
		}
		other, err := journal.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, reader := range []*journal.Journal{j, other} {
			if open, _, err := reader.UnfinishedRecords(o); err != nil || len(open) != 1 || open[0].Request.Signature.Nonce != 2 {
				t.Errorf("%s: unfinished %+v, %v", name, open, err)
			}
		}
	}
}

// TestJournalAcceptedIsNotReopened: an intent after the service accepted
// the quote's request (with or without a state since) never opens the
// withdrawal again: the accepted request, not a later one, is the one that
// runs, and one that ended stays ended.
func TestJournalAcceptedIsNotReopened(t *testing.T) {
	o := journal.Owner{Env: "sandbox", AccountID: "acct-1"}
	for name, c := range map[string]struct {
		seen     []journal.Entry
		finished bool
	}{
		"accepted":                 {[]journal.Entry{{Kind: journal.KindAccepted}}, false},
		"accepted, then COMPLETED": {[]journal.Entry{{Kind: journal.KindAccepted}, {Kind: journal.KindState, State: exchange.StateCompleted, TxHash: "0x" + strings.Repeat("ab", 32)}}, true},
	} {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		j, err := journal.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := append([]journal.Entry{{Kind: journal.KindIntent, Request: journalRequest("q-1", 1)}}, c.seen...)
		lines = append(lines, journal.Entry{Kind: journal.KindIntent, Request: journalRequest("q-1", 2)})
		for i, e := range lines {
			e.Time, e.Env, e.AccountID, e.QuoteID = t0.Add(time.Duration(i)*time.Second), o.Env, o.AccountID, "q-1"
			lines[i] = e
			if err := j.Append(e); err != nil {
				t.Fatalf("%s: line %d: %v", name, i, err)
			}
		}
		recs, err := j.Records()
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s: %+v, %v", name, recs, err)
		}
		if r := recs[0]; r.Unanswered() || r.Finished() != c.finished || r.Request.Signature.Nonce != 1 {
			t.Errorf("%s: record %+v; want answered, finished %v, with the accepted request (nonce 1)", name, r, c.finished)
		}
		if r := journal.FoldRecords(lines); len(r) != 1 || r[0].Unanswered() || r[0].Request.Signature.Nonce != 1 {
			t.Errorf("%s: folded %+v", name, r)
		}
		other, err := journal.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, reader := range []*journal.Journal{j, other} {
			open, _, err := reader.UnfinishedRecords(o)
			if err != nil || len(open) != map[bool]int{true: 0, false: 1}[c.finished] || len(open) == 1 && open[0].Request.Signature.Nonce != 1 {
				t.Errorf("%s: unfinished %+v, %v", name, open, err)
			}
		}
	}
}
