package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGuardReadsAJournalChangedInPlace: a journal rewritten in place (a
// backup copied over it, an editor writing back into the same file: the
// same inode), as long, its last 4 KiB as they were, in which a finished
// withdrawal's line became an unfinished one's, is read as it now is by
// the guard of a send (AppendGuarded), in this process (whose view read it
// before) and in the next (from the index file), never from the index's
// old mark: the repeat guard that reads it would let that withdrawal be
// sent again.
func TestGuardReadsAJournalChangedInPlace(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	writeGenJournal(t, path, 200, 1)
	j, _ := Open(path)
	if recs, _, err := j.UnfinishedRecords(genOwner); err != nil || len(recs) != 1 {
		t.Fatalf("UnfinishedRecords = %d, %v; want the one unfinished", len(recs), err)
	}
	raw := mustRead(t, path)
	done := []byte(`"quote_id":"q-00000002","state":"COMPLETED"`)
	open := []byte(`"quote_id":"q-99999992","state":"SENDING"  `)
	i := bytes.Index(raw, done)
	if i < 0 || len(done) != len(open) || len(raw)-i < 2*tailWindow {
		t.Fatal("no line to change before the last 4 KiB")
	}
	before, _ := os.Stat(path)
	if err := os.WriteFile(path, bytes.Replace(raw, done, open, 1), 0o600); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(path); !os.SameFile(before, after) {
		t.Fatal("the journal was not rewritten in place")
	}
	for name, jj := range map[string]*Journal{"this process": j, "the next, from the index file": func() *Journal { n, _ := Open(path); return n }()} {
		var seen []string
		guard := func() error {
			recs, _, err := jj.UnfinishedRecords(genOwner)
			for _, r := range recs {
				seen = append(seen, r.QuoteID)
			}
			return err
		}
		if err := jj.AppendGuarded(guard, Entry{Time: genT0, Kind: KindState, Env: "production", AccountID: "acct-1", QuoteID: "q-00000199", State: "SENDING"}); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(seen, "q-99999992") {
			t.Errorf("%s: the guard saw unfinished %v, not q-99999992, which the journal now holds unfinished", name, seen)
		}
	}
}

// TestGuardKeepsAnIndexThatHolds: the guard of a send reads a journal
// unchanged since its index file was written on from the index, never
// whole: the index file's running sum holds to the journal.
func TestGuardKeepsAnIndexThatHolds(t *testing.T) {
	path := indexedJournal(t)
	j, _ := Open(path)
	if err := j.checkRead(); err != nil {
		t.Fatal(err)
	}
	if j.view == nil || j.view.pass.start == 0 {
		t.Fatal("the guard read the journal whole past an index file that holds")
	}
}
