package journal

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

// legacyRejected is a rejected line as every version up to 970b8053 (0.1.0
// among them) wrote it: the worded answer, no other field.
func legacyRejected(quoteID, words string) string {
	return `{"time":"2026-03-02T10:00:05Z","kind":"rejected","env":"production","account_id":"acct-1","quote_id":"` +
		quoteID + `","error":` + strconv.Quote(words) + `}`
}

// legacyAnswers are the words such lines carry, and whether they tell
// nothing of whether the withdrawal executed (a 1xx, a 3xx, a 4xx the
// interface gives no meaning, a 409 without a code, 9108) or are a refusal.
var legacyAnswers = []struct {
	words   string
	unknown bool
}{
	{"The service refused: See Other (HTTP 303)", true},
	{"The service refused: Switching Protocols (HTTP 101)", true},
	{"The service refused: I'm a teapot (HTTP 418)", true},
	{"The service refused:  (HTTP 499)", true},
	{"The service refused: Conflict (HTTP 409)", true},
	{"The service refused: not processed (HTTP 422, code 4321)", true},
	{"This quote was already executed with another signature: get a new quote", true},
	{"This quote was already executed with another signature: get a new quote (service: nonce 7 took it)", true},
	{"This quote was already executed with another signature: get a new quote now", false},
	{"The service refused: Bad Request (HTTP 400)", false},
	{"The service refused: gone (HTTP 303) (HTTP 403)", false},     // the status is the last one
	{"The service refused: bad body (HTTP 307, code 1003)", false}, // a code the client knows
	{"The service refused: See Other (HTTP 303) and more", false},
	{"Insufficient balance in the funding account: enter a smaller amount", false},
	{NeverPaid, false},
	// As e1c65b03 to 9981f4b7 (11-22) wrote an unreadable 2xx: it may
	// have been an acceptance; no other status had those words.
	{"the service sent an answer svcwallet cannot read (HTTP 200)", true},
	{"the service sent an answer svcwallet cannot read (HTTP 204)", true},
	{"the service sent an answer svcwallet cannot read (HTTP 500)", false},
	{"the service sent an answer svcwallet cannot read (HTTP 200) twice", false},
}

// TestEarlierRefusalOfAnUnnamedAnswerIsUnanswered: a rejected line an
// earlier version wrote for an answer that tells nothing of whether the
// withdrawal executed reads unanswered (Record.Unanswered, not finished):
// in the records, and through the index (UnfinishedRecords), as a read
// of the whole journal; a refusal in the same words of a named status
// stays one.
func TestEarlierRefusalOfAnUnnamedAnswerIsUnanswered(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	for _, c := range legacyAnswers {
		intent, err := json.Marshal(genIntent("production", "acct-1", "q-1", 1, genT0))
		exchangetest.Must(t, err)
		j := journalOf(t, string(intent), legacyRejected("q-1", c.words))
		recs, err := j.Records()
		if err != nil || len(recs) != 1 {
			t.Fatalf("%q: %d records, %v", c.words, len(recs), err)
		}
		if recs[0].Unanswered() != c.unknown || recs[0].Finished() == c.unknown {
			t.Errorf("%q: unanswered %v, finished %v; want unanswered %v", c.words, recs[0].Unanswered(), recs[0].Finished(), c.unknown)
		}
		if c.unknown && recs[0].Error != "" {
			t.Errorf("%q: kept as the record's refusal %q", c.words, recs[0].Error)
		}
		for _, read := range []string{"as the index is written", "through the index written"} {
			again, err := Open(j.Path())
			exchangetest.Must(t, err)
			open, _, err := again.UnfinishedRecords(Owner{Env: "production", AccountID: "acct-1"})
			if err != nil || (len(open) == 1) != c.unknown {
				t.Errorf("%q, %s: %d unfinished (%v), want unfinished %v", c.words, read, len(open), err, c.unknown)
			}
			checkAgainstWhole(t, again, c.words)
		}
	}
}

// TestIndexOfAnEarlierVersionRefusingA303Rebuilt: an index of format 8,
// which folded an earlier version's refusal of a 303 as finished, is
// never trusted: the withdrawal is unfinished, read from the journal; nor
// one of format 9, which so folded a rejected line of 11-22 for a 2xx it
// could not read.
func TestIndexOfAnEarlierVersionRefusingA303Rebuilt(t *testing.T) {
	for _, c := range []struct{ magic, words string }{
		{"svcwjx8\n", "The service refused: See Other (HTTP 303)"},
		{"svcwjx9\n", "the service sent an answer svcwallet cannot read (HTTP 200)"},
	} {
		t.Run(c.magic[:len(c.magic)-1], func(t *testing.T) { earlierIndexRebuilt(t, c.magic, c.words) })
	}
}

// earlierIndexRebuilt: an index of format magic, which folded a rejected
// line in words as finished, leaves the withdrawal unfinished.
func earlierIndexRebuilt(t *testing.T, magic, words string) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	exchangetest.Must(t, err)
	exchangetest.Must(t, j.Append(genIntent("production", "acct-1", "q-1", 1, genT0)))
	appendRaw(t, path, legacyRejected("q-1", words)+"\n")
	if _, err := j.Tally(); err != nil {
		t.Fatal(err)
	}
	old := mustRead(t, IndexPath(path))
	if n := binary.LittleEndian.Uint64(old[len(indexMagic)+32:]); n != 1 {
		t.Fatalf("the index holds %d withdrawals, want 1", n)
	}
	copy(old, magic)
	old[headerSize+24] = byte(stRecord | stAnswered | stRequest) // refused: how it was folded
	exchangetest.Must(t, os.WriteFile(IndexPath(path), reseal(old), 0o600))

	again, err := Open(path)
	exchangetest.Must(t, err)
	open, _, err := again.UnfinishedRecords(Owner{Env: "production", AccountID: "acct-1"})
	if err != nil || len(open) != 1 || !open[0].Unanswered() || !open[0].Started.Equal(genT0) {
		t.Fatalf("unfinished through an index of format %q: %+v, %v; want the unanswered withdrawal", magic, open, err)
	}
}
