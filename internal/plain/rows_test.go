package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestLookUpReadsARowsID: plain mode's look-up takes a spreadsheet's row
// pasted on its line as the row's one quote id, never its date or amount
// (each was asked as a quote id), and refuses a row of two different ids,
// and bare hex ids that are a key's shape together, without repeating
// them, asking again.
func TestLookUpReadsARowsID(t *testing.T) {
	r := newRig(t)
	var ids []string
	for range 2 {
		id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	r.clock.Advance(sandbox.DefaultSettle)
	hex := "a0a0a0a0,a1a1a1a1,a2a2a2a2,a3a3a3a3,a4a4a4a4,a5a5a5a5,a6a6a6a6,a7a7a7a7" // ids, or a key in 8 pieces
	out, err := r.run(steps(logIn, typed("look up", "2026-11-30, "+ids[0]+", "+ids[1]+", 25.00 USDT", hex, "2026-11-30, ACME, "+ids[0]+", 1000.000000 USDT", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "this line holds 2 different ids, in columns 2 and 3", "this line holds 8 ids of 8 hex digits each, or a private key", "Quote id: "+ids[0])
	if strings.Contains(out, "no withdrawal with quote id") || strings.Count(out, ids[1]) != 0 || strings.Contains(out, "a0a0a0a0") {
		t.Errorf("a date or amount asked, or the refused row repeated:\n%s", out)
	}
}
