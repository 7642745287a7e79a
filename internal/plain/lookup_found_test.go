package plain

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestLookUpSaysEveryWithdrawalOfAPayoutHash: a transfer id two withdrawals
// seen here share (as a payout hash of one payout paying both) is looked
// up as both, and said to be two; one the board followed as another
// account is said as that account's, never asked as this one, nor then
// said to hold no quote id.
func TestLookUpSaysEveryWithdrawalOfAPayoutHash(t *testing.T) {
	r := newRig(t)
	first, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "11")
	if err != nil {
		t.Fatal(err)
	}
	w := r.onTheBoard(t, first)
	v := r.onTheBoard(t, second)
	v.TxID = w.TxID
	held := w
	held.QuoteID, held.TxID = "q-held-elsewhere", "tx-heldelsewhere1"
	board := follow.WatchFile{Path: filepath.Join(filepath.Dir(r.journal.Path()), follow.WatchlistFile), Env: r.env.Name}
	if err := board.Append([]follow.Kept{{QuoteID: second, Record: &v}, {QuoteID: held.QuoteID, Record: &held, As: sandbox.NoChainAccountID}}, nil); err != nil {
		t.Fatal(err)
	}
	out, err := r.run(steps(logIn, typed("look up", w.TxID, "Back home", "look up", held.TxID, "back", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	out = out[strings.Index(out, "Look up a withdrawal"):]
	if !strings.Contains(out, "is 2 withdrawals, paid out together: "+first+", "+second) || strings.Count(out, second) < 2 {
		t.Errorf("a transfer id two withdrawals share:\n%s", out)
	}
	if !strings.Contains(out, "is withdrawal q-held-elsewhere, which the watch board followed as account "+sandbox.NoChainAccountID) || strings.Contains(out, "no withdrawal with quote id q-held") ||
		strings.Contains(out, "no quote id in it") {
		t.Errorf("a transfer id of another account's withdrawal:\n%s", out)
	}
}
