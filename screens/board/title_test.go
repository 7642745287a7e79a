package board

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
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

// TestBoardPacesItsAsking: the board's asking, answers and saves (five a
// second or more) are paced, drawn with the next frame; its own draw and
// what the user asked for (a load, an export) are drawn at once.
func TestBoardPacesItsAsking(t *testing.T) {
	for _, msg := range []tea.Msg{boardTickMsg{}, boardAskedMsg{}, boardToldMsg{}, boardSaveMsg{}, boardSavedMsg{}} {
		if _, ok := msg.(tui.Paced); !ok {
			t.Errorf("%T is drawn at once: the board's answers would draw five frames a second", msg)
		}
	}
	for _, msg := range []tea.Msg{boardDrawMsg{}, boardLoadedMsg{}, boardExportedMsg{}} {
		if _, ok := msg.(tui.Paced); ok {
			t.Errorf("%T is paced: what it shows would wait up to a second", msg)
		}
	}
}
