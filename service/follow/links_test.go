//go:build unix

package follow_test

import (
	"path/filepath"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestWatchlistRefusesLinks: the watch board's ids are neither read nor
// written through a symbolic link.
func TestWatchlistRefusesLinks(t *testing.T) {
	board := filepath.Join(t.TempDir(), follow.WatchlistFile)
	boardContent := `{"envs":{"sandbox":[]}}` + "\n"
	boardTarget := exchangetest.PlantLink(t, board, boardContent)
	_, err := (&follow.WatchFile{Path: board, Env: "sandbox"}).Load()
	exchangetest.WantLinkRefused(t, "WatchFile.Load", err, board, boardTarget, boardContent)
	err = (&follow.WatchFile{Path: board, Env: "sandbox"}).Append([]follow.Kept{{QuoteID: "q1"}}, nil)
	exchangetest.WantLinkRefused(t, "WatchFile.Append", err, board, boardTarget, boardContent)
}
