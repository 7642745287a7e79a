package screentest

import (
	"reflect"
	"runtime"
	"strings"
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

// IsTimer reports whether cmd is a Bubble Tea timer (tea.Tick, tea.Every),
// known by its function: a test need not run it, nor wait to learn it waits.
// A timer made some other way is not recognised and simply runs.
func IsTimer(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer())
	if f == nil {
		return false
	}
	name := f.Name()
	return strings.HasPrefix(name, "charm.land/bubbletea/v2.Tick.") || strings.HasPrefix(name, "charm.land/bubbletea/v2.Every.")
}
