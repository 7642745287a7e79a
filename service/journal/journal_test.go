package journal_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
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

// TestJournalNeverHoldsKeys: an entry is the request and its public
// signature; nothing of the key that signed it.
func TestJournalNeverHoldsKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _ := journal.Open(path)
	if err := j.Append(journal.Entry{Time: t0, Kind: journal.KindIntent, QuoteID: "q-1", Request: journalRequest("q-1", 1)}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	for _, field := range []string{`"quote_id":"q-1"`, `"signer":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"`, `"nonce":1`, `"chain_id":327`} {
		if !strings.Contains(string(raw), field) {
			t.Errorf("journal line lacks %s: %s", field, raw)
		}
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

// TestJournalTypedDataMatchesRequest: an intent line's domain and transfer
// are what its request signed, so a transfer with another nonce or
// expiration, a domain without a transfer or a control character in the
// domain name is refused as written and skipped as read.
func TestJournalTypedDataMatchesRequest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	req := journalRequest("q-typed", 7)
	exp, _ := strconv.ParseInt(req.Signature.Expiration, 10, 64)
	good := signer.Transfer{Nonce: 7, Expiration: exp, NumTokens: 25_000_000}
	domain := signer.Domain{Name: "Service Exchange", ChainID: 327}
	entry := func(d *signer.Domain, tr *signer.Transfer) journal.Entry {
		return journal.Entry{Time: t0, Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q-typed", Request: req, Domain: d, Transfer: tr}
	}
	if err := j.Append(entry(&domain, &good)); err != nil {
		t.Fatalf("the transfer its request signed: %v", err)
	}
	otherNonce, otherExp := good, good
	otherNonce.Nonce = 8
	otherExp.Expiration++
	badName := signer.Domain{Name: "Service\u202eExchange", ChainID: 327}
	longName := signer.Domain{Name: strings.Repeat("a", 63) + "…", ChainID: 327} // 66 bytes, as safetext.Line would cut it
	for name, e := range map[string]journal.Entry{
		"another nonce":         entry(&domain, &otherNonce),
		"another expiration":    entry(&domain, &otherExp),
		"a domain alone":        entry(&domain, nil),
		"a bidi mark in a name": entry(&badName, &good),
		"a name past 64 bytes":  entry(&longName, &good),
	} {
		if err := j.Append(e); !errors.Is(err, journal.ErrLine) {
			t.Errorf("%s: Append = %v, want journal.ErrLine", name, err)
		}
	}
	entries, skipped, err := j.Scan()
	if err != nil || skipped != 0 || len(entries) != 1 || *entries[0].Transfer != good {
		t.Fatalf("scan: %+v, %d skipped, %v", entries, skipped, err)
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

// TestJournalWritesOnlyWhatReadsBack: an entry the reader would skip or
// read differently is refused by Append, and nothing is written.
func TestJournalWritesOnlyWhatReadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	exchangetest.Must(t, err)
	huge := decimal.RequireFromString(strings.Repeat("1", 70_000))
	for name, e := range map[string]journal.Entry{
		"70,000-digit receive amount": {Kind: journal.KindIntent, Env: "sandbox", QuoteID: "q-1", Intent: &journal.Intent{
			Chain: "ARBITRUM", TokenIn: "USDT", TokenOut: "USDT", ToAddress: sandbox.DestCompleted, PayAmount: decimal.NewFromInt(10), ReceiveAmount: huge}},
		"quote id with a dollar": {Kind: journal.KindAccepted, Env: "sandbox", QuoteID: "q-$(x)"},
		"unknown kind":           {Kind: "paid", Env: "sandbox", QuoteID: "q-1"},
		"escape in an error":     {Kind: journal.KindRejected, Env: "sandbox", QuoteID: "q-1", Error: "no\x1b[2J"},
		"an accepted expiry":     {Kind: journal.KindAccepted, Env: "sandbox", QuoteID: "q-1", QuoteExpired: true},
	} {
		t.Run(name, func(t *testing.T) {
			e.Time = time.Unix(1, 0).UTC()
			if err := j.Append(e); !errors.Is(err, journal.ErrLine) {
				t.Fatalf("Append = %v, want journal.ErrLine", err)
			}
			if b, _ := os.ReadFile(path); len(b) != 0 {
				t.Fatalf("the journal holds %d bytes", len(b))
			}
		})
	}
}

// TestJournalReadBackIsChecked: lines planted in the journal are held to
// the shapes of an answer: each bad one is skipped and counted, never
// returned, and a good line among them is still read.
func TestJournalReadBackIsChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	exchangetest.Must(t, err)
	good := `{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-good"}`
	bad := []string{
		`{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-\u001b]0;owned\u0007"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-1$(touch /tmp/x)"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-2","state":"PAID"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-3","state":"FAILED","STATE":"COMPLETED"}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"intent","env":"sandbox","quote_id":"q-4","intent":{"chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","pay_amount":"1","receive_amount":"` + strings.Repeat("9", 900) + `"}}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"intent","env":"sandbox","quote_id":"q-5","intent":{"chain":"ARBITRUM","token_in":"USDT","token_out":"USDT","to_address":"0x3C44\u202eCdDd"}}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"intent","env":"sandbox","quote_id":"q-6","request":{"quote_id":"q-6","signature":{"signer":"me","r":"0x1","s":"0x2","v":1,"nonce":1,"expiration":"x"}}}`,
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-8","state":"COMPLETED","quote_expired":true}`,
		// Read, it would say refused after an acceptance.
		`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-good"}`,
	}
	exchangetest.Must(t, os.WriteFile(path, []byte(strings.Join(append(bad, good), "\n")+"\n"), 0o600))
	entries, skipped, err := j.Scan()
	if err != nil || len(entries) != 1 || entries[0].QuoteID != "q-good" || skipped != len(bad) {
		t.Fatalf("read %d entries (%v), skipped %d of %d bad lines", len(entries), err, skipped, len(bad))
	}
	// An error text is cleaned to one line where it is read.
	exchangetest.Must(t, os.WriteFile(path, []byte(`{"time":"2026-03-01T10:00:00Z","kind":"rejected","env":"sandbox","quote_id":"q-7","error":"no\u001b[2J\nmore"}`+"\n"), 0o600))
	if entries, _, err := j.Scan(); err != nil || len(entries) != 1 || entries[0].Error != "no more" {
		t.Fatalf("entries %+v, %v; want the error cleaned", entries, err)
	}
}

// TestQuoteExpiredWordsNameNoKey: the words of an expired quote are shared
// by the console, the command line and the journal (History, `history`):
// they name no key of the console's.
func TestQuoteExpiredWordsNameNoKey(t *testing.T) {
	got := exchange.Explain(&exchange.APIError{Status: 410, Code: exchange.CodeQuoteExpired}).Error()
	if strings.Contains(got, "press") || !strings.Contains(got, "nothing was paid") {
		t.Errorf("Explain(quote expired) = %q", got)
	}
	// A refusal older versions journaled in the console's words reads in today's.
	recs := journal.FoldRecords([]journal.Entry{
		{Kind: journal.KindIntent, QuoteID: "q-1"},
		{Kind: journal.KindRejected, QuoteID: "q-1", Error: "Quote expired: press r to get a new one and sign again (service: gone at 10:02)"},
	})
	if len(recs) != 1 || recs[0].Error != exchange.QuoteExpiredWords+" (service: gone at 10:02)" {
		t.Errorf("old journal line reads %q", recs[0].Error)
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
