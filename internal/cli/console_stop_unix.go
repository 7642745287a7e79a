//go:build !windows

package cli

import (
	"context"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/tui"
)

// tickedStops stops the console Bubble Tea draws (runTicked) on ctrl+z or
// a stop sent from elsewhere, as the drawer does its own: the terminal
// given back first, the job stopped (osguard.JobControl), the terminal
// taken again and drawn whole once continued, and the model told it shows
// again before any key read after, so a question that signs holds its
// keys again. It caught no stop: ctrl+z did nothing, and kill -TSTP was
// dropped. Nil where no shell would continue svcwallet.
type tickedStops struct {
	stop  func()
	asked chan os.Signal
	// release gives the terminal back, restore takes it again and draws
	// the frame whole (the program's, set once it is made: its renderer
	// starts on a new alternate screen).
	release, restore func() error
	stops            osguard.Stops
}

// tickedStopMsg is a stop sent from elsewhere, when seen stops had been
// taken: one taken since was this one (two kill -TSTP at once).
type tickedStopMsg struct{ seen uint64 }

func newTickedStops() *tickedStops {
	stop, asked := osguard.JobControl()
	if stop == nil {
		return nil
	}
	return &tickedStops{stop: stop, asked: asked}
}

// on makes p the program stopped, and hands it a tickedStopMsg for each
// stop sent from elsewhere until ctx ends.
func (s *tickedStops) on(ctx context.Context, p *tea.Program) {
	s.release = p.ReleaseTerminal
	s.restore = p.RestoreTerminal
	s.stops.Forward(ctx, s.asked, func(seen uint64) { p.Send(tickedStopMsg{seen: seen}) })
}

// filter is the program's message filter, on its event loop.
func (s *tickedStops) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		if m.String() == "ctrl+z" && !m.IsRepeat {
			return s.stopped()
		}
	case tickedStopMsg:
		if s.stops.TakenSince(m.seen) {
			return nil
		}
		return s.stopped()
	}
	return msg
}

// stopped stops the console until it is continued.
func (s *tickedStops) stopped() tea.Msg {
	_ = s.release()
	s.stop()
	s.stops.Took()
	_ = s.restore()
	return tui.ShownAgainMsg{}
}
