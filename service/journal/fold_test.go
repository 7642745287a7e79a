package journal

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// foldLines are the lines a withdrawal's journal may hold, in any order
// once the disk is not trusted (a hand edit, a backup put back): each
// intent signs the quote again with a nonce of its own.
var foldLines = []struct {
	name string
	line func(n int) Entry
}{
	{"intent", func(n int) Entry {
		e := genIntent("production", "acct-1", "q-1", n, genT0)
		if n%2 == 0 { // intents that differ, as only a hand edit makes them: what is shown must be the kept request's
			e.Intent.Chain = "ARBITRUM"
		}
		return e
	}},
	{"accepted", func(int) Entry { return Entry{Kind: KindAccepted} }},
	{"refused", func(int) Entry { return Entry{Kind: KindRejected, Error: "Address screening flagged the destination"} }},
	{"not sent", func(int) Entry { return Entry{Kind: KindRejected, Error: "Cannot reach api.example", NotSent: true} }},
	{"expired", func(int) Entry {
		return Entry{Kind: KindRejected, Error: exchange.QuoteExpiredWords, QuoteExpired: true}
	}},
	{"SENDING", func(int) Entry { return Entry{Kind: KindState, State: exchange.StateSending} }},
	{"COMPLETED", func(int) Entry {
		return Entry{Kind: KindState, State: exchange.StateCompleted, TxHash: "0x" + strings.Repeat("ab", 32)}
	}},
}

// foldOrder is the lines of one withdrawal, foldLines picked by order.
func foldOrder(order []int) (entries []Entry, names []string) {
	for i, k := range order {
		e := foldLines[k].line(i + 1)
		e.Time, e.Env, e.AccountID, e.QuoteID = genT0.Add(time.Duration(i)*time.Second), "production", "acct-1", "q-1"
		entries, names = append(entries, e), append(names, foldLines[k].name)
	}
	return entries, names
}

// checkFold holds the record folded from entries, and every record of its
// prefixes, to the index's status of the same lines and to the rule that
// once the service accepted a withdrawal, no later line makes it look not
// sent, refused or unanswered (re-sendable), nor replaces the request it
// accepted (when none was journaled before, the first one after).
func checkFold(t *testing.T, entries []Entry, what string) {
	t.Helper()
	var st status
	var f folder
	var accepted, prev *Record
	for i, e := range entries {
		st = st.with(e)
		f.add(e)
		if len(f.recs) != 1 {
			t.Fatalf("%s: %d records", what, len(f.recs))
		}
		r := f.recs[0]
		code := int(st >> stateShift)
		if st&stAnswered != 0 != r.Answered || code >= len(stateNames) || stateNames[code] != r.State ||
			st.open() == r.Finished() || st&stAccepted != 0 == r.AcceptedAt.IsZero() {
			t.Fatalf("%s, after line %d: the index's status %08b disagrees with the record %+v", what, i+1, st, r)
		}
		// What it pays and where is the intent of the request it keeps,
		// whatever other intents of the quote say (genIntent: 10 + nonce).
		if r.Request.QuoteID != "" && !r.Intent.PayAmount.Equal(decimal.NewFromInt(int64(10+r.Request.Signature.Nonce))) {
			t.Fatalf("%s, after line %d: the request of nonce %d is shown paying %s", what, i+1, r.Request.Signature.Nonce, r.Intent.PayAmount)
		}
		if accepted == nil && !r.AcceptedAt.IsZero() || accepted != nil && accepted.Request.QuoteID == "" {
			accepted = &r // the request it accepted: the one journaled then, or the first after
		}
		if accepted != nil && (r.Unanswered() || r.State == "" || r.Error != "" || r.NotSent || r.QuoteExpired ||
			r.Request.Signature.Nonce != accepted.Request.Signature.Nonce) {
			t.Fatalf("%s, after line %d: accepted before, now %+v (request nonce %d, %d when accepted)",
				what, i+1, r, r.Request.Signature.Nonce, accepted.Request.Signature.Nonce)
		}
		// After it, only a state its follow saw moves it on (or back).
		if prev != nil && !prev.AcceptedAt.IsZero() && e.Kind != KindState && (r.State != prev.State || !r.AcceptedAt.Equal(prev.AcceptedAt)) {
			t.Fatalf("%s, after line %d: %s after %s", what, i+1, r.State, prev.State)
		}
		prev = &r
	}
}

// TestFoldEveryOrder: in every order of up to five lines of one
// withdrawal, the record and the index's status agree, and one the service
// accepted stays accepted or further (checkFold).
func TestFoldEveryOrder(t *testing.T) {
	var walk func(order []int)
	walk = func(order []int) {
		if len(order) > 0 {
			entries, names := foldOrder(order)
			checkFold(t, entries, strings.Join(names, ", "))
		}
		if len(order) == 5 {
			return
		}
		for k := range foldLines {
			walk(append(order, k))
		}
	}
	walk(nil)
}

// TestFoldReadBackInAnyOrder: a withdrawal's lines in a random order,
// written to a journal and read back whole, through the index in memory,
// and through the index file by another process, read as one record;
// once accepted it is never among the unanswered (what the repeat check
// and resume go by). 40 orders with -tags e2e, 10 in the everyday run.
func TestFoldReadBackInAnyOrder(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	o := Owner{Env: "production", AccountID: "acct-1"}
	for seed := range uint64(exchangetest.Trials(40)) {
		r := rand.New(rand.NewPCG(seed, 2))
		order := []int{0, 1} // intent, accepted: then any lines
		for range 2 + r.IntN(4) {
			order = append(order, r.IntN(len(foldLines)))
		}
		entries, names := foldOrder(order)
		what := strings.Join(names, ", ")
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		j, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			exchangetest.Must(t, j.Append(e))
		}
		want := FoldRecords(entries)
		other, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for name, reader := range map[string]*Journal{"this process": j, "another": other} {
			whole, err := reader.Records()
			if err != nil || !sameList(whole, want) {
				t.Fatalf("%s (%s): records %+v, %v; want %+v", what, name, whole, err, want)
			}
			open, _, err := reader.UnfinishedRecords(o)
			if err != nil || !sameList(open, Unfinished(want)) {
				t.Fatalf("%s (%s): unfinished %+v, %v; want %+v", what, name, open, err, Unfinished(want))
			}
			for _, rec := range open {
				if rec.Unanswered() {
					t.Fatalf("%s (%s): accepted, read as unanswered: %+v", what, name, rec)
				}
			}
		}
		checkAgainstWhole(t, other, fmt.Sprintf("seed %d: %s", seed, what))
	}
}

// TestFoldTimelessLine: a line without its time (a hand edit) is skipped:
// an acceptance is dated by it (Record.AcceptedAt), so read, an acceptance
// without one would leave the records saying refused where the index says
// accepted. Whole and through the index, the journal reads alike.
func TestFoldTimelessLine(t *testing.T) {
	entries, _ := foldOrder([]int{0, 1, 2}) // intent, accepted, refused
	entries[1].Time = time.Time{}
	var b []byte
	for _, e := range entries {
		line, err := json.Marshal(e)
		exchangetest.Must(t, err)
		b = append(append(b, line...), '\n')
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	exchangetest.Must(t, os.WriteFile(path, b, 0o600))
	j, err := Open(path)
	exchangetest.Must(t, err)
	if _, skipped, err := j.RecordsSkipped(); err != nil || skipped != 1 {
		t.Fatalf("%d lines skipped (%v), want the timeless acceptance", skipped, err)
	}
	checkAgainstWhole(t, j, "intent, accepted without a time, refused")
}
