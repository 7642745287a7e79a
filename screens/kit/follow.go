package kit

import (
	"fmt"
	"path/filepath"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

// What the screens that follow withdrawals share (the status screen,
// History and the watch board): journaling what they learn, the board's
// file, and the rate limit's countdown.

// JournalState journals a state a follower of this console learned for an
// own withdrawal (follow.Step.JournalState), in a Cmd: the status
// screen, the board and History's refresh all write through it. writes,
// when given, counts the Cmd until its write is tried.
func JournalState(app *App, quoteID string, w exchange.Withdrawal, writes *sync.WaitGroup) tea.Cmd {
	if app.Journal() == nil {
		return nil
	}
	wr := app.Withdrawer()
	owed := app.Writes.owe(false, func() error { return wr.JournalState(quoteID, w) })
	if writes != nil {
		writes.Add(1)
	}
	return func() tea.Msg {
		if writes != nil {
			defer writes.Done()
		}
		// Owed from the Cmd's making (app.Writes) until written, by this
		// Cmd or by the console's end.
		if err := owed.Make(); err != nil {
			return tui.ErrorMsg{Err: exchange.UserError{Text: "The journal could not be written (" + err.Error() + "): the history may miss this state; it is tried again when the console ends; check the disk", Cause: err}}
		}
		return nil
	}
}

// IDsTypedMsg carries ids typed or pasted on a screen the watch board
// opened (a row's status screen), back to the board, which adds them as
// its field does.
type IDsTypedMsg struct{ Text string }

// StateDir is where the board's file and its exports go: next to the
// journal.
func StateDir(app *App) string {
	if app.Journal() != nil {
		return filepath.Dir(app.Journal().Path())
	}
	return filepath.Dir(journal.DefaultPath())
}

// WatchlistPath is the board's file.
func WatchlistPath(app *App) string { return filepath.Join(StateDir(app), follow.WatchlistFile) }

// NextSecond is the wait until a countdown of left, shown in whole seconds
// rounded up, shows one less.
func NextSecond(left time.Duration) time.Duration {
	if d := left % time.Second; d > 0 {
		return d
	}
	return time.Second
}

// RateLimited says that the service's rate limit holds every ask for left
// more, in whole seconds rounded up.
func RateLimited(left time.Duration) string {
	return fmt.Sprintf("rate limited, resuming in %ds", (left+time.Second-1)/time.Second)
}

// Clock is the one time format of History's and the board's rows, in the
// zone of now: the time of day to the second when it is today, else the
// day and minute; "" for none.
func Clock(t, now time.Time) string { return clockOn(t, now, "Jan 02 15:04") }

// ClockSeconds is Clock with the seconds on another day too, for a
// withdrawal's own screen, which has the room.
func ClockSeconds(t, now time.Time) string { return clockOn(t, now, "Jan 02 15:04:05") }

// clockOn is t in the zone of now: the time of day when it is today, else
// as otherDay lays it out.
func clockOn(t, now time.Time, otherDay string) string {
	if t.IsZero() {
		return ""
	}
	t = t.In(now.Location())
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	return t.Format(otherDay)
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// LookupName names a payout hash or transfer id found, as the board and
// `svcwallet status` say it: a hash shortened as addresses are.
func LookupName(l follow.Lookup) string { return l.Name() }
