//go:build unix

package follow_test

import (
	"path/filepath"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/follow"
)

// TestWatchlistRefusesLinks: the watch board's ids are neither read nor
// written through a symbolic link.
func TestWatchlistRefusesLinks(t *testing.T) {
	board := filepath.Join(t.TempDir(), follow.WatchlistFile)
	boardContent := `{"envs":{"sandbox":[]}}` + "\n"
	boardTarget := exchangetest.PlantLink(t, board, boardContent)
	_, err := follow.LoadWatchlist(board, "sandbox")
	exchangetest.WantLinkRefused(t, "LoadWatchlist", err, board, boardTarget, boardContent)
	err = follow.SaveWatchlist(board, "sandbox", []follow.Kept{{QuoteID: "q1"}})
	exchangetest.WantLinkRefused(t, "SaveWatchlist", err, board, boardTarget, boardContent)
}
