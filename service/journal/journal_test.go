package journal_test

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// t0 is a time far from a UTC day boundary.
var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func journalRequest(id string, nonce uint32) *exchange.WithdrawRequest {
	return &exchange.WithdrawRequest{QuoteID: id, Signature: exchange.WithdrawSignature{
		Signer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", R: "0x" + strings.Repeat("1", 64), S: "0x" + strings.Repeat("2", 64),
		V: 27, Nonce: nonce, Expiration: "1772445600000000000", ChainID: 327,
	}}
}

func TestJournalAppendAndRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "svcwallet", "journal.jsonl")
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if j.Path() != path {
		t.Fatalf("path %s", j.Path())
	}
	if recs, err := j.Records(); err != nil || len(recs) != 0 {
		t.Fatalf("empty journal: %v, %v", recs, err)
	}
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	intent := &journal.Intent{ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: dec("100"), ReceiveAmount: dec("98.5"), ExpiresAt: at(60)}
	base := journal.Entry{Env: "sandbox", AccountID: "acct-1"}
	entry := func(s int, kind, id string, f func(*journal.Entry)) journal.Entry {
		e := base
		e.Time, e.Kind, e.QuoteID = at(s), kind, id
		if f != nil {
			f(&e)
		}
		return e
	}
	for _, e := range []journal.Entry{
		entry(0, journal.KindIntent, "q-done", func(e *journal.Entry) { e.Request, e.Intent = journalRequest("q-done", 1), intent }),
		entry(1, journal.KindAccepted, "q-done", nil),
		entry(2, journal.KindIntent, "q-lost", func(e *journal.Entry) { e.Request = journalRequest("q-lost", 2) }),
		entry(4, journal.KindState, "q-done", func(e *journal.Entry) { e.State = exchange.StateSending }),
		entry(7, journal.KindState, "q-done", func(e *journal.Entry) { e.State, e.TxHash = exchange.StateCompleted, "0x"+strings.Repeat("ab", 32) }),
		entry(8, journal.KindIntent, "q-refused", func(e *journal.Entry) { e.Request = journalRequest("q-refused", 3) }),
		entry(9, journal.KindRejected, "q-refused", func(e *journal.Entry) { e.Error = "The quote expired." }),
		entry(10, journal.KindIntent, "q-following", func(e *journal.Entry) { e.Request = journalRequest("q-following", 4) }),
		entry(11, journal.KindAccepted, "q-following", nil),
	} {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("journal mode %o, want 600", st.Mode().Perm())
		}
		if dst, _ := os.Stat(filepath.Dir(path)); dst.Mode().Perm() != 0o700 {
			t.Fatalf("journal directory mode %o, want 700", dst.Mode().Perm())
		}
	}
	raw, _ := os.ReadFile(path)
	if lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n"); len(lines) != 9 || !strings.HasSuffix(string(raw), "\n") {
		t.Fatalf("%d lines, want 9 newline-terminated JSON lines", len(lines))
	}

	// A second Journal on the same file (a restart) reads the same.
	j2, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := j2.Entries()
	if err != nil || len(entries) != 9 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	if got := entries[0]; !reflect.DeepEqual(got.Request, journalRequest("q-done", 1)) || got.Intent == nil || !got.Intent.PayAmount.Equal(dec("100")) {
		t.Fatalf("intent read back as %+v", got)
	}
	recs, err := j2.Records()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.QuoteID)
	}
	if strings.Join(ids, ",") != "q-following,q-refused,q-lost,q-done" {
		t.Fatalf("records in order %v, want newest first", ids)
	}
	byID := map[string]journal.Record{}
	for _, r := range recs {
		byID[r.QuoteID] = r
	}
	done := byID["q-done"]
	if !done.Answered || done.State != exchange.StateCompleted || done.TxHash != "0x"+strings.Repeat("ab", 32) || !done.Finished() ||
		!done.Started.Equal(at(0)) || !done.Updated.Equal(at(7)) || done.Env != "sandbox" || done.AccountID != "acct-1" ||
		done.Intent.Chain != "BASE" || !reflect.DeepEqual(done.Request, *journalRequest("q-done", 1)) {
		t.Errorf("q-done %+v", done)
	}
	if lost := byID["q-lost"]; lost.Answered || lost.State != "" || lost.Finished() || lost.Request.Signature.Nonce != 2 {
		t.Errorf("q-lost (sent, never answered) %+v: it must be offered for resumption", lost)
	}
	if refused := byID["q-refused"]; !refused.Answered || refused.State != "" || refused.Error != "The quote expired." || !refused.Finished() {
		t.Errorf("q-refused %+v", refused)
	}
	if following := byID["q-following"]; !following.Answered || following.State != exchange.StateSubmitted || following.Finished() {
		t.Errorf("q-following %+v", following)
	}
}

// TestJournalTornLastLine: a crash mid-write leaves a partial last line.
// Reading skips it, and the next entry still lands on a line of its own.
func TestJournalTornLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	intent := journal.Entry{Time: t0, Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q-1", Request: journalRequest("q-1", 1)}
	if err := j.Append(intent); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"time":"2026-03-02T10:00:01Z","kind":"accepted","env":"sandbox","quote_id":"q-`); err != nil {
		t.Fatal(err)
	}
	f.Close()

	entries, err := j.Entries()
	if err != nil || len(entries) != 1 || entries[0].QuoteID != "q-1" {
		t.Fatalf("entries with a torn last line: %+v, %v", entries, err)
	}
	recs, err := j.Records()
	if err != nil || len(recs) != 1 || recs[0].Answered || recs[0].Finished() {
		t.Fatalf("records with a torn last line: %+v, %v", recs, err)
	}

	// After the restart the answer is journaled again; it must not be
	// glued to the torn fragment and lost.
	accepted := journal.Entry{Time: t0.Add(2 * time.Second), Kind: journal.KindAccepted, Env: "sandbox", QuoteID: "q-1"}
	if err := j.Append(accepted); err != nil {
		t.Fatal(err)
	}
	recs, err = j.Records()
	if err != nil || len(recs) != 1 || !recs[0].Answered || recs[0].State != exchange.StateSubmitted {
		t.Fatalf("entry appended after a torn line was lost: %+v, %v", recs, err)
	}

	// Lines that are not entries at all are skipped too; an empty file is empty.
	if err := os.WriteFile(path, []byte("garbage\n{}\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if entries, err := j.Entries(); err != nil || len(entries) != 0 {
		t.Fatalf("entries of a garbage file: %+v, %v", entries, err)
	}
}

// TestJournalSurvivesBadLines: a 2 MB line, a 600 KB quote id and lines that
// are not JSON are skipped and counted; the withdrawals before and after
// them are all read.
func TestJournalSurvivesBadLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	add := func(id string) {
		t.Helper()
		if err := j.Append(journal.Entry{Time: t0, Kind: journal.KindIntent, Env: "sandbox", QuoteID: id, Request: journalRequest(id, 1)}); err != nil {
			t.Fatal(err)
		}
	}
	add("q-before")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	huge := `{"kind":"intent","env":"sandbox","quote_id":"` + strings.Repeat("q", 600<<10) + `"}` + "\n"
	for _, line := range []string{huge, strings.Repeat("x", 2<<20) + "\n", "not json\n", "{\"quote_id\": 7}\n"} {
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	add("q-after")

	entries, skipped, err := j.Scan()
	if err != nil || skipped != 4 || len(entries) != 2 || entries[0].QuoteID != "q-before" || entries[1].QuoteID != "q-after" {
		t.Fatalf("scan: %d entries (%v), %d skipped, %v", len(entries), entries, skipped, err)
	}
	recs, skipped, err := j.RecordsSkipped()
	if err != nil || skipped != 4 || len(recs) != 2 {
		t.Fatalf("records: %d, %d skipped, %v", len(recs), skipped, err)
	}
}

// TestJournalAccountRecords: the records of one account in one environment
// only, Unfinished keeps those still needing the user, and no journal has
// no records.
func TestJournalAccountRecords(t *testing.T) {
	var none *journal.Journal
	if recs, skipped, err := none.AccountRecords(journal.Owner{Env: "sandbox", AccountID: "acct-1"}); recs != nil || skipped != 0 || err != nil {
		t.Fatalf("no journal: %v, %d, %v", recs, skipped, err)
	}
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range []journal.Entry{
		{Env: "sandbox", AccountID: "acct-1", Kind: journal.KindIntent, QuoteID: "q-mine-open"},
		{Env: "sandbox", AccountID: "acct-1", Kind: journal.KindIntent, QuoteID: "q-mine-done"},
		{Env: "sandbox", AccountID: "acct-1", Kind: journal.KindState, QuoteID: "q-mine-done", State: exchange.StateCompleted},
		{Env: "sandbox", AccountID: "acct-2", Kind: journal.KindIntent, QuoteID: "q-other-account"},
		{Env: "production", AccountID: "acct-1", Kind: journal.KindIntent, QuoteID: "q-other-env"},
	} {
		e.Time = t0.Add(time.Duration(i) * time.Second)
		e.Request = journalRequest(e.QuoteID, uint32(i))
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	recs, skipped, err := j.AccountRecords(journal.Owner{Env: "sandbox", AccountID: "acct-1"})
	if err != nil || skipped != 0 {
		t.Fatalf("%d skipped, %v", skipped, err)
	}
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.QuoteID)
	}
	if want := []string{"q-mine-done", "q-mine-open"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("records %v, want %v (newest first)", ids, want)
	}
	if open := journal.Unfinished(recs); len(open) != 1 || open[0].QuoteID != "q-mine-open" {
		t.Fatalf("unfinished %+v, want q-mine-open", open)
	}
}
