package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawWithAJournalThatCannotBeOpened: a journal that cannot be
// opened (a directory in its place) stops a real withdrawal before it is
// signed: exit 1, the journal's fault named, no request sent, nothing
// paid. A dry run goes on without it.
func TestWithdrawWithAJournalThatCannotBeOpened(t *testing.T) {
	state := withdrawState(t)
	if err := os.MkdirAll(filepath.Join(state, "journal.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	r := newStatusRig(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--env", "local", "--yes")...).
		want(t, exitFailed, "the withdrawal journal cannot be opened (journal: ", "nothing was signed or sent")
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraw requests left with the journal unopenable", n)
	}
	r.wantBalance(sandbox.DemoBalance)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--env", "local", "--dry-run")...).
		want(t, exitCompleted, "To sign (EIP-712)")
}
