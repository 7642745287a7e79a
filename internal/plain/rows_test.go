package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestLookUpReadsARowsID: plain mode's look-up takes a spreadsheet's row
// pasted on its line as the row's one quote id, never its date or amount
// (each was asked as a quote id), and refuses a row of two different ids
// without repeating them, asking again.
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
	out, err := r.run(steps(logIn, typed("look up", "2026-11-30, "+ids[0]+", "+ids[1]+", 25.00 USDT", "2026-11-30, ACME, "+ids[0]+", 1000.000000 USDT", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "this line holds 2 different ids, in columns 2 and 3", "Quote id: "+ids[0])
	if strings.Contains(out, "no withdrawal with quote id") || strings.Count(out, ids[1]) != 0 {
		t.Errorf("a date or amount asked, or the refused row repeated:\n%s", out)
	}
}
