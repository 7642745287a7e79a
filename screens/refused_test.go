package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestConsoleSaysRefusedHere (issue item: one outcome for every face): a
// quote whose execute the service refused (screening), which the service
// still reports CREATED, is REFUSED with the journal's reason on the
// status screen and on the board's row, as `svcwallet status` and plain
// mode say it; neither asks again.
func TestConsoleSaysRefusedHere(t *testing.T) {
	r := screentest.NewStatusRig(t)
	Console(r.App)
	timers := screentest.RecordTimers(r.App)
	id := r.Refused(sandbox.DestFlagged, "25")

	st := r.App.Makers.Status(r.App, id)
	st.SetSize(120, 40)
	screentest.Drive(st, st.Init())
	v := ansi.Strip(st.View())
	if !strings.Contains(v, "REFUSED") || !strings.Contains(v, "This machine's journal holds") || !strings.Contains(v, "screening") ||
		strings.Contains(v, "asked again") {
		t.Errorf("status screen:\n%s", v)
	}
	if len(*timers) != 0 {
		t.Errorf("the status screen asks again: %d timers", len(*timers))
	}

	asked := r.StatusCalls.Load()
	board := r.App.Makers.Board(r.App)
	board.SetSize(120, 40)
	screentest.Drive(board, board.Init())
	screentest.Drive(board, func() tea.Msg { return tea.PasteMsg{Content: id} })
	if v := ansi.Strip(board.View()); !strings.Contains(v, "○ REFUSED") || strings.Contains(v, "CREATED") {
		t.Errorf("board:\n%s", v)
	}
	for i := 0; i < 5 && len(*timers) > 0; i++ {
		tm := (*timers)[0]
		*timers = (*timers)[1:]
		r.Clock.Advance(tm.D)
		screentest.Drive(board, func() tea.Msg { return tm.Msg })
	}
	if n := r.StatusCalls.Load() - asked; n != 1 {
		t.Errorf("the board asked %d times, want once", n)
	}
}
