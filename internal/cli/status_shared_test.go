package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusHashOfAnotherAccountNamesIt: the watch board followed the main
// account's paid-out withdrawal (Kept.As names that account). Support,
// logged in as another account of the same environment, gives the
// customer's payout hash to status: it is not asked as this account, whose
// service would answer "unknown, or it belongs to another account", but
// said to be that withdrawal, followed as the account named. With --json
// each error names the input it is about, as one not seen does.
func TestStatusHashOfAnotherAccountNamesIt(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	done, w := r.paidOut(t)
	board := follow.WatchFile{Path: filepath.Join(filepath.Dir(journal.DefaultPath()), follow.WatchlistFile), Env: "local"}
	if err := board.Append([]follow.Kept{{QuoteID: w.QuoteID, Record: &w, As: sandbox.DemoAccountID}}, nil); err != nil {
		t.Fatal(err)
	}
	r.takeAsks()
	res := r.run(map[string]string{apiKeyVar: sandbox.NoChainAPIKey}, w.WithdrawTxHash)
	res.want(t, exitNotFound, nil, nil)
	said := res.stdout + res.stderr
	if n := len(r.takeAsks()); n != 0 || !strings.Contains(said, "is withdrawal "+done) || !strings.Contains(said, "account "+sandbox.DemoAccountID) || strings.Contains(said, "another account (the service") {
		t.Errorf("another account's payout hash: %d status requests; said:\n%s", n, said)
	}
	res = r.run(map[string]string{apiKeyVar: sandbox.NoChainAPIKey}, "--json", w.WithdrawTxHash, w.TxID)
	res.want(t, exitNotFound, nil, nil)
	if lines := strings.Split(strings.TrimSpace(res.stdout), "\n"); len(lines) != 2 || !strings.Contains(lines[0], `"withdraw_tx_hash":"`+w.WithdrawTxHash[:6]) ||
		!strings.Contains(lines[1], `"tx_id":"`+w.TxID+`"`) {
		t.Errorf("--json errors of another account's payout hash and transfer id name neither:\n%s", res.stdout)
	}
}

// TestStatusHashOfTwoWithdrawalsAsksBoth: two withdrawals this machine has
// seen share one payout hash (one payout paid both). status HASH asks and
// prints both, and says the hash is two withdrawals: the last one learned
// alone was followed, the other unsaid.
func TestStatusHashOfTwoWithdrawalsAsksBoth(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	first, w := r.paidOut(t)
	second, v := r.paidOut(t)
	v.WithdrawTxHash = w.WithdrawTxHash
	onBoard(t, w)
	onBoard(t, v)
	r.takeAsks()
	res := r.run(nil, w.WithdrawTxHash)
	res.want(t, exitCompleted, nil, nil)
	if n := len(r.takeAsks()); n != 2 || !strings.Contains(res.stdout, first) || !strings.Contains(res.stdout, second) ||
		!strings.Contains(res.stderr, "is 2 withdrawals, paid out together: "+first+", "+second) {
		t.Errorf("a payout hash two withdrawals share: %d status requests; said:\n%s%s", n, res.stdout, res.stderr)
	}
}
