package journal_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// TestJournalAppendStateOnce: a state is journaled once per withdrawal,
// also by a second Journal on the file (another process), and SUBMITTED
// not after the acceptance; the same quote id of another account is a
// withdrawal of its own, and through another environment's name (a new
// name, a proxy) the same withdrawal.
func TestJournalAppendStateOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	other, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	e := func(kind, account, env, state string) journal.Entry {
		return journal.Entry{Time: t0, Kind: kind, Env: env, AccountID: account, QuoteID: "q-1", State: state}
	}
	if err := j.Append(e(journal.KindAccepted, "acct-1", "sandbox", "")); err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		j     *journal.Journal
		entry journal.Entry
	}{
		{j, e(journal.KindState, "acct-1", "sandbox", exchange.StateSubmitted)},
		{j, e(journal.KindState, "acct-1", "sandbox", exchange.StateSending)},
		{other, e(journal.KindState, "acct-1", "sandbox", exchange.StateSending)},
		{other, e(journal.KindState, "acct-2", "sandbox", exchange.StateSending)},
		{j, e(journal.KindState, "acct-1", "production", exchange.StateSending)},
		{j, e(journal.KindState, "acct-1", "sandbox", exchange.StateCompleted)},
		{other, e(journal.KindState, "acct-1", "sandbox", exchange.StateCompleted)},
		// A slower follower's late answer never reopens it.
		{other, e(journal.KindState, "acct-1", "sandbox", exchange.StateSending)},
	} {
		if err := x.j.AppendState(x.entry); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.AccountID+"/"+e.Env+":"+e.Kind+" "+e.State)
	}
	want := "acct-1/sandbox:accepted ,acct-1/sandbox:state SENDING,acct-2/sandbox:state SENDING,acct-1/sandbox:state COMPLETED"
	if strings.Join(got, ",") != want {
		t.Errorf("journal holds\n%s\nwant\n%s", strings.Join(got, ","), want)
	}
}

// TestJournalAppendStateRereads: AppendState reads only what was written
// since its last call, yet misses nothing: a line another process wrote
// whole, a journal replaced under it (read again whole); a last line without
// its newline, under its write lock, is torn: the state is written after it.
func TestJournalAppendStateRereads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	state := func(q, s string) journal.Entry {
		return journal.Entry{Time: t0, Kind: journal.KindState, Env: "sandbox", AccountID: "acct-1", QuoteID: q, State: s}
	}
	lines := func() int {
		entries, err := j.Entries()
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	appendRaw := func(e journal.Entry, end string) {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(string(b) + end); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(j.AppendState(state("q-1", exchange.StateSending)))
	must(j.AppendState(state("q-2", exchange.StateSubmitted)))
	appendRaw(state("q-1", exchange.StateCompleted), "\n") // another process
	must(j.AppendState(state("q-1", exchange.StateSending)))
	if n := lines(); n != 3 {
		t.Fatalf("%d lines after a late SENDING for a withdrawal another process finished, want 3", n)
	}
	appendRaw(state("q-2", exchange.StateFailed), "") // cut short before its newline
	must(j.AppendState(state("q-2", exchange.StateSending)))
	if recs, err := j.Records(); err != nil || len(recs) != 2 || recs[1].QuoteID != "q-2" || recs[1].State != exchange.StateSending {
		t.Fatalf("after a torn FAILED, SENDING: %+v, %v; want q-2 SENDING", recs, err)
	}

	// Replaced by a journal that has never seen q-1 finish.
	other := filepath.Join(filepath.Dir(path), "other.jsonl")
	o, err := journal.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	must(o.Append(state("q-1", exchange.StateSending)))
	must(os.Rename(other, path))
	must(j.AppendState(state("q-1", exchange.StateCompleted)))
	must(j.AppendState(state("q-1", exchange.StateCompleted)))
	if n := lines(); n != 2 {
		t.Fatalf("%d lines in the replaced journal, want its SENDING and one COMPLETED", n)
	}

	// Replaced by a longer journal, in which q-1 is not finished: read
	// again whole, not from where the old one ended.
	o, err = journal.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	must(o.Append(state("q-1", exchange.StateSending)))
	for i := range 20 {
		must(o.Append(state(fmt.Sprintf("q-pad-%d", i), exchange.StateSending)))
	}
	must(os.Rename(other, path))
	must(j.AppendState(state("q-1", exchange.StateCompleted)))
	if n := lines(); n != 22 {
		t.Fatalf("%d lines in the longer journal, want its 21 and q-1's COMPLETED", n)
	}

	// Emptied in place (the same file, shorter), once everything in it was
	// read: read again whole.
	must(j.AppendState(state("q-1", exchange.StateCompleted)))
	must(os.Truncate(path, 0))
	must(j.AppendState(state("q-1", exchange.StateCompleted)))
	if n := lines(); n != 1 {
		t.Fatalf("%d lines in the emptied journal, want q-1's COMPLETED", n)
	}
}

// BenchmarkJournalAppendState: a follower's answer in a journal of 20,000
// lines costs a read of that withdrawal's lines and of what was written
// since, not of the whole file. The first call, which reads the journal
// whole and writes its index, is made before the timing.
func BenchmarkJournalAppendState(b *testing.B) {
	j, err := journal.Open(filepath.Join(b.TempDir(), "journal.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	for i := range 20000 {
		if err := j.Append(journal.Entry{Time: t0, Kind: journal.KindState, Env: "sandbox", AccountID: "acct-1", QuoteID: fmt.Sprintf("q-%d", i), State: exchange.StateSending}); err != nil {
			b.Fatal(err)
		}
	}
	if err := j.AppendState(journal.Entry{Time: t0, Kind: journal.KindState, Env: "sandbox", AccountID: "acct-1", QuoteID: "q-0", State: exchange.StateSending}); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		// Already journaled, so nothing is written: the cost is the read.
		if err := j.AppendState(journal.Entry{Time: t0, Kind: journal.KindState, Env: "sandbox", AccountID: "acct-1", QuoteID: fmt.Sprintf("q-%d", i%20000), State: exchange.StateSending}); err != nil {
			b.Fatal(err)
		}
	}
}
