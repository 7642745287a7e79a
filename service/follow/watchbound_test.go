package follow

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestWatchFileTooLarge: a board's file past maxWatchFile (a sparse one
// costs no disk) is refused in words, with what to do, by the board's
// load, a save and a rewrite's read back alike; never read whole, and
// nothing is added to it.
func TestWatchFileTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), WatchlistFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxWatchFile + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	const says = "holds more than 64 MiB, far more than a board writes (10,000 ids take about 5 MB); move it aside or remove it"
	w := &WatchFile{Path: path, Env: "sandbox"}
	if kept, err := w.Load(); err == nil || !strings.Contains(err.Error(), says) || kept != nil {
		t.Errorf("load: %d ids, %v; want the refusal saying %q", len(kept), err, says)
	}
	if err := w.Append([]Kept{keptRow(1, exchange.StateSending)}, nil); err == nil || !strings.Contains(err.Error(), says) {
		t.Errorf("save: %v; want the refusal", err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != maxWatchFile+1 {
		t.Errorf("the file grew to %d bytes (%v)", fi.Size(), err)
	}
	if _, err := readBack(path); err == nil || !strings.Contains(err.Error(), says) {
		t.Errorf("read back: %v; want the refusal", err)
	}
}

// TestWatchFileBoundAboveTheLargestBoard: 10,000 ids, every field of each
// at its longest, with a claim, written twice over (a log before it is
// rewritten) take at most half the bound.
func TestWatchFileBoundAboveTheLargestBoard(t *testing.T) {
	row := longestKeptRow(t)
	if board := 2 * 10_000 * int64(len(row)+1); board > maxWatchFile/2 {
		t.Errorf("a log of the largest board of 10,000 ids is %d bytes, over half the bound %d", board, maxWatchFile)
	}
}

// longestKeptRow is one board row as the board's file keeps it, every
// field at its longest, with a claim.
func longestKeptRow(t *testing.T) []byte {
	t.Helper()
	id, hash := strings.Repeat("q", 128), strings.Repeat("5", 88)
	name, amount := strings.Repeat("C", 64), decimal.RequireFromString("123456789012.123456")
	now := time.Date(2026, 11, 30, 3, 0, 0, 123456789, time.UTC)
	row, err := json.Marshal(Kept{QuoteID: id, Since: now, Checked: now,
		Record: &exchange.Withdrawal{QuoteID: id, TxID: id, State: exchange.StateCompleted, Chain: name, TokenOut: name,
			ReceiveAmount: amount, WithdrawTxHash: hash, UpdatedAt: now},
		Claim: &Claim{Chain: name, WithdrawTxHash: hash, TokenOut: name, ReceiveAmount: amount}})
	if err != nil {
		t.Fatal(err)
	}
	return row
}
