package journal

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestRepeatRecordsKeepFailed: what the repeat check reads is the
// account's unfinished withdrawals and those that ended FAILED since the
// time asked, not earlier FAILED ones nor COMPLETED ones, whether the
// index holds their lines in its file or read them since.
func TestRepeatRecordsKeepFailed(t *testing.T) {
	path := indexedJournal(t)         // 40 withdrawals a minute apart, the last 3 unfinished
	for _, i := range []int{37, 38} { // SENDING, now FAILED
		b, err := json.Marshal(Entry{Time: genT0.Add(time.Duration(i) * time.Minute), Kind: KindState,
			Env: "production", AccountID: "acct-1", QuoteID: genQuoteID(i), State: exchange.StateFailed})
		if err != nil {
			t.Fatal(err)
		}
		appendRaw(t, path, string(b)+"\n")
	}
	// Every generated withdrawal started at genT0.
	for since, want := range map[time.Time][]string{
		genT0:                  {genQuoteID(37), genQuoteID(38), genQuoteID(39)}, // started alike: in file order
		genT0.Add(time.Second): {genQuoteID(39)},
	} {
		for _, what := range []string{"read past the index file", "in the index file"} {
			j, _ := Open(path)
			recs, _, err := j.RepeatRecords(genOwner, since)
			if got := quoteIDsOfRecords(recs); err != nil || !slices.Equal(got, want) {
				t.Errorf("%s, since %s: RepeatRecords = %v, %v; want %v", what, since.Format(time.TimeOnly), got, err, want)
			}
			if recs, _, _ := j.UnfinishedRecords(genOwner); len(recs) != 1 {
				t.Errorf("%s: %d unfinished, want 1", what, len(recs))
			}
		}
	}
	var none *Journal
	if recs, _, err := none.RepeatRecords(genOwner, genT0); recs != nil || err != nil {
		t.Fatalf("nil journal: %v, %v", recs, err)
	}
}
