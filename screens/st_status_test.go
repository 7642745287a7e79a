package screens

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// timer is what the screen asked to be woken with, and after how long.
type timer struct {
	d   time.Duration
	msg tea.Msg
}

// timed makes s schedule through a recorder instead of tea.Tick: the test
// sees every wait asked for and fires the timer itself.
func timed(s *statusScreen) *[]timer {
	var got []timer
	s.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		got = append(got, timer{d, msg})
		return nil
	}
	return &got
}
