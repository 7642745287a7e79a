package journal

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

// TestLineWithoutItsNewlineIsNoEntry: a journal ending in a whole JSON
// object without its newline (a write cut short after all but the newline,
// whose cut back failed, or a write another process has under way) holds
// no entry there for any reader: history, the index and its rebuild, the
// unfinished ones, a withdrawal's own lines, the latest, doctor's tally,
// what was written since a mark. It read as a withdrawal made, unanswered,
// until the next append sealed it, though its writer said it unwritten.
// Once the writer finishes it (its newline written), every reader of the
// same Journal reads it: nothing was taken past it.
func TestLineWithoutItsNewlineIsNoEntry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	first := genIntent("production", "acct-1", "q-1", 1, genT0)
	if err := j.Append(first); err != nil {
		t.Fatal(err)
	}
	mark, err := j.Mark()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(genIntent("production", "acct-1", "q-2", 2, genT0.Add(time.Minute)))
	if err != nil {
		t.Fatal(err)
	}
	appendRaw(t, path, string(b))
	readers := func(what string, want []string, skipped int) {
		t.Helper()
		if entries, n, err := j.Scan(); err != nil || len(entries) != len(want) || n != skipped {
			t.Errorf("%s: Scan = %d entries, %d skipped, %v; want %d, %d", what, len(entries), n, err, len(want), skipped)
		}
		if recs, n, err := j.UnfinishedRecords(genOwner); err != nil || !quotes(recs, want) || n != skipped {
			t.Errorf("%s: UnfinishedRecords = %v, %d skipped, %v; want %v", what, quoteIDsOfRecords(recs), n, err, want)
		}
		if recs, err := j.RecordsOf(genOwner, "q-2"); err != nil || len(recs) != len(want)-1 {
			t.Errorf("%s: RecordsOf(q-2) = %v, %v", what, quoteIDsOfRecords(recs), err)
		}
		if recs, err := j.Recent(genOwner, 5); err != nil || !quotes(recs, want) {
			t.Errorf("%s: Recent = %v, %v; want %v", what, quoteIDsOfRecords(recs), err, want)
		}
		if recs, err := j.UnfinishedIn("production"); err != nil || !quotes(recs, want) {
			t.Errorf("%s: UnfinishedIn = %v, %v; want %v", what, quoteIDsOfRecords(recs), err, want)
		}
		var listed []Record
		var head Listing
		err := j.History(ListOptions{Env: "production"}, func(l Listing) error { head = l; return nil },
			func(r Record) error { listed = append(listed, r); return nil })
		if err != nil || !quotes(listed, want) || head.Count != len(want) || head.Skipped != skipped {
			t.Errorf("%s: History = %v, %+v, %v; want %v, %d skipped", what, quoteIDsOfRecords(listed), head, err, want, skipped)
		}
		if recs, err := j.RecordsSince(genOwner, mark); err != nil || len(recs) != len(want)-1 {
			t.Errorf("%s: RecordsSince = %v, %v", what, quoteIDsOfRecords(recs), err)
		}
		again, _ := Open(path) // another command: the index rebuilt
		if tally, err := again.Tally(); err != nil || tally != (Tally{Withdrawals: len(want), Unfinished: len(want), Skipped: skipped}) {
			t.Errorf("%s: Tally = %+v, %v; want %d withdrawals, %d skipped", what, tally, err, len(want), skipped)
		}
	}
	readers("whole but for its newline", []string{"q-1"}, 1)
	appendRaw(t, path, "\n") // its writer finishes it
	readers("its newline written", []string{"q-2", "q-1"}, 0)
}

// quotes reports whether recs are the withdrawals ids, in order.
func quotes(recs []Record, ids []string) bool {
	got := quoteIDsOfRecords(recs)
	if len(got) != len(ids) {
		return false
	}
	for i := range ids {
		if got[i] != ids[i] {
			return false
		}
	}
	return true
}

func quoteIDsOfRecords(recs []Record) []string {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.QuoteID
	}
	return ids
}
