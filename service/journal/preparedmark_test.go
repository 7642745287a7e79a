package journal

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestPreparedMarkThroughTheIndex: PreparedMark is where the prepared
// line starts in the journal file, at the first read, through the index kept in
// memory, or through the index file a later command loads; RecordsSince
// from it holds what was written after the line, never before it.
func TestPreparedMarkThroughTheIndex(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	state := func(quoteID string) string {
		return `{"time":"2026-03-02T10:00:00Z","kind":"state","env":"local","account_id":"acct-1","quote_id":"` + quoteID + `","state":"SUBMITTED"}`
	}
	j := journalOf(t, state("q-before"), oldPreparedTransfer, state("q-after"))
	b, err := os.ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	at := int64(strings.Index(string(b), oldPreparedTransfer))
	o := Owner{Env: "local", ChainID: 327, AccountID: "acct-1"}
	for _, read := range []struct {
		what string
		j    func() *Journal
	}{
		{"the first read", func() *Journal { return j }},
		{"through the index in memory", func() *Journal { return j }},
		{"through the index file", func() *Journal {
			again, err := Open(j.Path())
			if err != nil {
				t.Fatal(err)
			}
			return again
		}},
	} {
		jj := read.j()
		m, ok, err := jj.PreparedMark(o, "q-old")
		if err != nil || !ok || m.end != at {
			t.Fatalf("%s: PreparedMark = %+v, %v, %v; want the line's start %d", read.what, m, ok, err, at)
		}
		recs, err := jj.RecordsSince(o, m)
		if err != nil || len(recs) != 1 || recs[0].QuoteID != "q-after" {
			t.Errorf("%s: RecordsSince the prepared line = %+v, %v; want q-after alone", read.what, recs, err)
		}
	}
	if _, err := os.Stat(j.indexPath()); err != nil {
		t.Errorf("no index file was saved to load: %v", err)
	}
	// A journal put back from a copy since the mark was taken (a restored
	// state folder) cannot tell what was written after it.
	m, _, _ := j.PreparedMark(o, "q-old")
	copied := j.Path() + ".copy"
	if err := os.WriteFile(copied, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(copied, j.Path()); err != nil {
		t.Fatal(err)
	}
	if _, err := j.RecordsSince(o, m); !errors.Is(err, ErrReplaced) {
		t.Errorf("RecordsSince the prepared line of a journal replaced since: %v, want ErrReplaced", err)
	}
}
