package kit

import (
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// SpinWhile turns a screen's spinner while busy; a tick that comes when
// nothing is awaited is dropped, which ends the ticking until the next wait
// starts it (spinner.Model.Tick). Login, deposit, route, quote and the
// review gate share it.
func SpinWhile(s *spinner.Model, tick spinner.TickMsg, busy bool) tea.Cmd {
	if !busy {
		return nil
	}
	var cmd tea.Cmd
	*s, cmd = s.Update(tick)
	return cmd
}
