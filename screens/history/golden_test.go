package history

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
)

// TestHistoryGolden: the journal's withdrawals of the account, unfinished
// ones marked, the selected one in full.
func TestHistoryGolden(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	root := tui.New(New(r.App).(*historyScreen), tui.Options{Theme: "dark", Common: r.App.Common})
	screentest.Feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, m := range screentest.RunAll(root.Init()) {
		screentest.Feed(root, m)
	}
	screentest.Feed(root, tea.KeyPressMsg{Code: tea.KeyDown})
	screentest.Feed(root, tea.KeyPressMsg{Code: tea.KeyDown}) // the refused one, with its reason
	screentest.GoldenFrames(t, root, nil)
}
