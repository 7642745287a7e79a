package follow_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestWatchFileErrorNamesItsPathEscaped: a board file that cannot be read
// is named as it is, what a terminal acts on escaped (safetext.Shown), not
// cleaned into the name of another folder.
func TestWatchFileErrorNamesItsPathEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state\x1b[2J\u00a0x")
	exchangetest.Must(t, os.Mkdir(dir, 0o700))
	path := filepath.Join(dir, follow.WatchlistFile)
	exchangetest.Must(t, os.WriteFile(path, []byte("{not json"), 0o600))
	_, err := (&follow.WatchFile{Path: path, Env: "sandbox"}).Load()
	if err == nil || !strings.Contains(err.Error(), safetext.Shown(path)) || strings.ContainsRune(err.Error(), 0x1b) {
		t.Fatalf("a broken board file said %q, not its path escaped", err)
	}
}
