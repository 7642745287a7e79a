package history

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
)

// TestTitleAppearsOnce: History's title is in the top bar, and the body
// does not repeat it as a heading.
func TestTitleAppearsOnce(t *testing.T) {
	r := screentest.NewStatusRig(t)
	screentest.HistoryEntries(t, r)
	h := New(r.App).(*historyScreen)
	for _, m := range screentest.RunAll(h.Init()) {
		h.Update(m)
	}
	screentest.RequireTitleOnce(t, screentest.RootFrame(h, r.App), "Withdrawal history")
}
