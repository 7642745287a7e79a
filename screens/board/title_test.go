package board

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestTitleAppearsOnce: the board's title is in the top bar, and the body
// does not repeat it as a heading.
func TestTitleAppearsOnce(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: screentest.Seed(t, r, sandbox.DestCompleted)})
	br.fire()
	screentest.RequireTitleOnce(t, screentest.RootFrame(br.b, r.App), "Watch board")
}
