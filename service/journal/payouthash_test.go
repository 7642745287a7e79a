package journal

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestJournaledPayoutHashShape: a payout hash read back from the journal is
// shown, copied and opened in an explorer as its chain's transaction, so a
// state line's hash must be some chain's hash shape (the line is not read),
// none on a failed or refunded line, and its own withdrawal's chain's once
// the lines fold (a BASE withdrawal keeps no Tron-shaped hash), as a
// board's kept record is held to it.
func TestJournaledPayoutHashShape(t *testing.T) {
	evm, tron := "0x"+strings.Repeat("ab", 32), strings.Repeat("ab", 32)
	line := func(state, hash string) []byte {
		b, err := json.Marshal(Entry{Time: genT0.Add(3e9), Kind: KindState, Env: "production", AccountID: "acct-1", QuoteID: "q-1", State: state, TxHash: hash})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for name, tc := range map[string]struct {
		state, hash string
		read        bool
	}{
		"an EVM hash":                 {exchange.StateCompleted, evm, true},
		"a Tron hash":                 {exchange.StateCompleted, tron, true},
		"a short hash":                {exchange.StateCompleted, "0xabc", false},
		"a 63-digit hash":             {exchange.StateCompleted, evm[:65], false},
		"a hash on a FAILED line":     {exchange.StateFailed, evm, false},
		"a hash on a REFUNDED line":   {exchange.StateRefunded, evm, false},
		"an id that is no hash":       {exchange.StateCompleted, "tx-12345", false},
		"no hash on a COMPLETED line": {exchange.StateCompleted, "", true},
	} {
		_, err := parseJournalLine(line(tc.state, tc.hash))
		if (err == nil) != tc.read || err != nil && !errors.Is(err, ErrLine) {
			t.Errorf("%s: read back %v (err %v), want %v", name, err == nil, err, tc.read)
		}
	}
	accepted, _ := json.Marshal(Entry{Time: genT0, Kind: KindAccepted, Env: "production", QuoteID: "q-1", TxHash: evm})
	if _, err := parseJournalLine(accepted); err == nil {
		t.Error("an acceptance line carrying a payout hash was read back")
	}
	fold := func(hash string) string {
		in := genIntent("production", "acct-1", "q-1", 1, genT0) // a BASE withdrawal
		st, err := parseJournalLine(line(exchange.StateCompleted, hash))
		if err != nil {
			t.Fatal(err)
		}
		return FoldRecords([]Entry{in, {Time: genT0.Add(2e9), Kind: KindAccepted, Env: "production", AccountID: "acct-1", QuoteID: "q-1"}, st})[0].TxHash
	}
	if got := fold(evm); got != evm {
		t.Fatalf("a BASE withdrawal's EVM payout hash folded to %q", got)
	}
	if got := fold(tron); got != "" {
		t.Fatalf("a BASE withdrawal kept the Tron-shaped payout hash %q", got)
	}
}
