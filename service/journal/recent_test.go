package journal

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestRecent: the n latest withdrawals of an account, read from the end,
// are what AccountRecords folds of them, whole (their intent lines come
// from the index, however far back), across the reads back (recentChunk)
// and with other accounts' and environments' lines between; a line cut
// short at the end and a line that is not an entry are passed over as
// every read does; UnfinishedIn is every account's unfinished withdrawals
// there.
func TestRecent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	// Reads of 8 KiB, not 64: 600 withdrawals (about 520 KB), more than
	// the destination form's 500, span more reads than 3,000 did (2.6 MB)
	// at a fifth of the cost.
	defer func(was int) { recentChunk = was }(recentChunk)
	recentChunk = 8 << 10
	// Each withdrawal a minute after the one before.
	var b bytes.Buffer
	for i := range 600 {
		for _, l := range genLines(t, genQuoteID(i), i, i < 596) {
			b.Write(append(l, '\n'))
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	other := genIntent("production", "acct-2", "q-other", 1, genT0.Add(time.Hour*1000))
	staging := genIntent("staging", "acct-1", "q-staging", 2, genT0.Add(time.Hour*1001))
	staging.Domain.ChainID = 326 // another service
	for _, e := range []Entry{other, staging} {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	fh, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	fh.WriteString("not an entry\n{\"kind\":\"intent\",\"env\":\"produ")
	fh.Close()
	all, _, err := j.AccountRecords(genOwner)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 7, 50, 500, 600, 700} {
		got, err := j.Recent(genOwner, n)
		if err != nil {
			t.Fatal(err)
		}
		want := all[:min(n, len(all))]
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Recent(%d): %d records, first %+v; want %d, first %+v", n, len(got), got[0], len(want), want[0])
		}
	}
	if got, _ := j.RecentIn("production", 2); len(got) != 2 || got[0].QuoteID != "q-other" || got[1].QuoteID != genQuoteID(599) {
		t.Errorf("Recent of every account: %+v", got)
	}
	if got, _ := j.Recent(Owner{Env: "staging", ChainID: 326, AccountID: "acct-1"}, 5); len(got) != 1 || got[0].QuoteID != "q-staging" {
		t.Errorf("Recent on staging: %+v", got)
	}
	open, err := j.UnfinishedIn("production")
	if err != nil || len(open) != 5 || open[0].QuoteID != "q-other" {
		t.Errorf("UnfinishedIn: %d, %v: %+v", len(open), err, open)
	}
	var none *Journal
	if recs, err := none.Recent(genOwner, 3); recs != nil || err != nil {
		t.Errorf("no journal: %v %v", recs, err)
	}
}

// TestRecentAcrossReads: withdrawals of one line each (unanswered), read
// back in pieces of every size, from smaller than a line up: none is lost
// where a read cuts its line.
func TestRecentAcrossReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	// Written at once, the lines Append writes: 40 Appends are 40 fsyncs.
	var b bytes.Buffer
	for i := range 40 {
		line, err := json.Marshal(genIntent("production", "acct-1", genQuoteID(i), i, genT0.Add(time.Duration(i)*time.Minute)))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func(was int) { recentChunk = was }(recentChunk)
	for _, size := range []int{97, 500, 1013, 4096, 64 << 10} {
		recentChunk = size
		got, err := j.Recent(genOwner, 30)
		if err != nil || len(got) != 30 || got[0].QuoteID != genQuoteID(39) || got[29].QuoteID != genQuoteID(10) {
			t.Fatalf("read back %d bytes at a time: %d records (%v)", size, len(got), err)
		}
	}
}
