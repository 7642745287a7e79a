package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestLookUpReadsQuotedHashes: plain mode's look-up finds a payout hash
// pasted as a CSV export's column writes it, or in brackets, as the hash
// alone; it was refused as a private key's shape. A key quoted so is
// still refused, never repeated.
func TestLookUpReadsQuotedHashes(t *testing.T) {
	r := newRig(t)
	id, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(sandbox.DefaultSettle)
	w := r.onTheBoard(t, id)
	if w.WithdrawTxHash == "" {
		t.Fatalf("no payout hash to look up: %+v", w)
	}
	bare := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	out, err := r.run(steps(logIn, typed("look up", `"`+bare+`",`, `"`+w.WithdrawTxHash+`", (`+w.WithdrawTxHash+`).`, "back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "the shape of a private key", "Quote id: "+id)
	if strings.Contains(out, bare[:8]) {
		t.Errorf("the refused key was repeated:\n%s", out)
	}
}
