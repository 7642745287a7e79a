package journal

import (
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
