package screentest

import (
	"context"
	"errors"
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
// A wait inside a Cmd is refused (ByTimers).
func RecordTimers(app *kit.App) *[]Timer {
	var got []Timer
	app.Timer = func(d time.Duration, msg tea.Msg) tea.Cmd {
		got = append(got, Timer{d, msg})
		return nil
	}
	app.Wait = ByTimers
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

// ByTimers is a kit.Hooks.Wait that refuses to wait: the watch board's
// asker hands over at once and the board waits through its Timer, which a
// test records and fires on its fake clock.
func ByTimers(context.Context, time.Duration) error { return errByTimers }

var errByTimers = errors.New("a test's clock moves by its timers")
