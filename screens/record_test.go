package screens

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestBoardFinishesTheRecord (issue 18): a withdrawal left right after
// SUBMITTED and followed to COMPLETED on the watch board is journaled
// SUBMITTED (the acceptance), SENDING and COMPLETED once each, so Home's
// "1 unfinished withdrawal" goes; a second board following it writes
// nothing more.
func TestBoardFinishesTheRecord(t *testing.T) {
	r := screentest.NewStatusRig(t)
	Console(r.App)
	timers := screentest.RecordTimers(r.App)
	id := r.Made(sandbox.DestCompleted, "25")
	home := r.App.Makers.Home(r.App)
	home.SetSize(120, 40)
	screentest.Drive(home, home.Init())
	if v := ansi.Strip(home.View()); !strings.Contains(v, "1 unfinished withdrawal") {
		t.Fatalf("Home before:\n%s", v)
	}

	follow := func() {
		board := r.App.Makers.Board(r.App)
		board.SetSize(120, 40)
		screentest.Drive(board, board.Init())
		screentest.Drive(board, func() tea.Msg { return tea.PasteMsg{Content: id} })
		for i := 0; i < 100 && len(*timers) > 0; i++ {
			tm := (*timers)[0]
			*timers = (*timers)[1:]
			r.Clock.Advance(tm.D)
			screentest.Drive(board, func() tea.Msg { return tm.Msg })
		}
		if v := ansi.Strip(board.View()); !strings.Contains(v, "✓ COMPLETED") {
			t.Fatalf("the board did not follow it to the end:\n%s", v)
		}
	}
	follow()
	want := []string{"accepted", exchange.StateSending, exchange.StateCompleted}
	if got := r.JournalStates(id); !slices.Equal(got, want) {
		t.Errorf("journaled %v, want %v", got, want)
	}
	screentest.Drive(home, home.(tui.Resumer).Resume())
	if v := ansi.Strip(home.View()); strings.Contains(v, "unfinished withdrawal") {
		t.Errorf("Home after the board saw COMPLETED:\n%s", v)
	}
	follow()
	if got := r.JournalStates(id); !slices.Equal(got, want) {
		t.Errorf("followed again, the journal holds %v, want %v", got, want)
	}
}

// TestBoardCreatedAfterAcceptance: on the board, a CREATED record of a
// withdrawal the journal saw accepted is marked as contradicting it, and
// never taken for a quote that expired unexecuted.
func TestBoardCreatedAfterAcceptance(t *testing.T) {
	r := screentest.NewStatusRig(t)
	Console(r.App)
	timers := screentest.RecordTimers(r.App)
	id := r.Made(sandbox.DestCompleted, "25")
	r.Clock.Advance(time.Hour)
	created := func(b []byte) []byte { return exchangetest.CreatedLongAgo(b) }
	r.StatusRewrite.Store(&created)
	board := r.App.Makers.Board(r.App)
	board.SetSize(120, 40)
	screentest.Drive(board, board.Init())
	screentest.Drive(board, func() tea.Msg { return tea.PasteMsg{Content: id} })
	if v := ansi.Strip(board.View()); !strings.Contains(v, "! CREATED?") || strings.Contains(v, "EXPIRED") || len(*timers) == 0 {
		t.Fatalf("board (%d timers pending):\n%s", len(*timers), v)
	}
}
