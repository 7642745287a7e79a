//go:build unix

package withdrawal_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

// TestJournalFullDisk: with a file-size limit that leaves no room for the
// intent line (as a full disk would), no withdraw request leaves. It runs
// in a child process, as the limit applies to the whole process.
func TestJournalFullDisk(t *testing.T) {
	if !exchangetest.InChild(t, "under the limit: refused, nothing sent") {
		return
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	sent, n := executeWith(t, path, func(t *testing.T, _ string) {
		exchangetest.FileSizeLimit(t, 100) // bytes: less than one intent line
	})
	if n != 0 || sent.Err == nil || !strings.Contains(sent.Err.Error(), "free disk space") {
		t.Fatalf("with a full disk: %d withdraw requests left, err %v", n, sent.Err)
	}
	t.Log("under the limit: refused, nothing sent")
}
