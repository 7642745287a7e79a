package journal

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRecordsSince: only the withdrawals whose lines were written after a
// Mark are folded; a journal replaced or cut short since is ErrReplaced,
// never read as if nothing had been written.
func TestRecordsSince(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	accepted := func(id string) {
		t.Helper()
		if err := j.Append(Entry{Time: at, Kind: KindAccepted, Env: "testnet", AccountID: "acct", QuoteID: id}); err != nil {
			t.Fatal(err)
		}
	}
	empty, err := j.Mark()
	if err != nil {
		t.Fatal(err)
	}
	accepted("q-before")
	m, err := j.Mark()
	if err != nil {
		t.Fatal(err)
	}
	accepted("q-after")
	recs, err := j.RecordsSince(Owner{Env: "testnet", AccountID: "acct"}, m)
	if err != nil || len(recs) != 1 || recs[0].QuoteID != "q-after" {
		t.Fatalf("since the mark: %+v (%v), want q-after alone", recs, err)
	}
	if recs, err := j.RecordsSince(Owner{Env: "testnet", AccountID: "acct"}, empty); err != nil || len(recs) != 2 {
		t.Fatalf("since before the journal existed: %+v (%v), want both", recs, err)
	}
	if recs, err := j.RecordsSince(Owner{Env: "testnet", AccountID: "other"}, m); err != nil || len(recs) != 0 {
		t.Fatalf("another account's: %+v (%v), want none", recs, err)
	}

	if err := os.Truncate(path, m.end-1); err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordsSince(Owner{Env: "testnet", AccountID: "acct"}, m); !errors.Is(err, ErrReplaced) {
		t.Fatalf("cut short: %v, want ErrReplaced", err)
	}
	swapped := path + ".new"
	if err := os.WriteFile(swapped, make([]byte, m.end+100), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(swapped, path); err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordsSince(Owner{Env: "testnet", AccountID: "acct"}, m); !errors.Is(err, ErrReplaced) {
		t.Fatalf("replaced by a longer file: %v, want ErrReplaced", err)
	}
}

// TestMarkBeforeALineBeingWritten: a Mark taken while another process is
// writing a line (its first bytes on disk, not its newline) ends before
// that line, so the line is read whole once written; a mark inside it
// read its rest as a line of its own, and the withdrawal was lost to
// whatever read from the mark (the watch board, the repeat check).
func TestMarkBeforeALineBeingWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	o := Owner{Env: "testnet", AccountID: "acct"}
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	if err := j.Append(Entry{Time: at, Kind: KindAccepted, Env: o.Env, AccountID: o.AccountID, QuoteID: "q-before"}); err != nil {
		t.Fatal(err)
	}
	line, err := json.Marshal(Entry{Time: at, Kind: KindAccepted, Env: o.Env, AccountID: o.AccountID, QuoteID: "q-written"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	half := len(line) / 2
	if _, err := f.Write(line[:half]); err != nil { // the other process, mid-line
		t.Fatal(err)
	}
	m, err := j.Mark()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(append(line[half:], '\n')); err != nil {
		t.Fatal(err)
	}
	recs, err := j.RecordsSince(o, m)
	if err != nil || len(recs) != 1 || recs[0].QuoteID != "q-written" {
		t.Fatalf("since a mark taken mid-line: %+v (%v), want q-written", recs, err)
	}
}
