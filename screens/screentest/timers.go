package screentest

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
)

// Timer is what a screen asked to be woken with, and after how long.
type Timer struct {
	D   time.Duration
	Msg tea.Msg
}

// RecordTimers makes app's screens schedule through a recorder instead of
// tea.Tick: the test sees every wait asked for and fires the timer itself.
func RecordTimers(app *kit.App) *[]Timer {
	var got []Timer
	app.Timer = func(d time.Duration, msg tea.Msg) tea.Cmd {
		got = append(got, Timer{d, msg})
		return nil
	}
	return &got
}
