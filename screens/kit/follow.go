package kit

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// What the screens that follow withdrawals share (the status screen,
// History and the watch board): journaling what they learn, the board's
// file, and the rate limit's countdown.

// JournalState journals a state a follower of this console learned for an
// own withdrawal (follow.Step.JournalState), in a Cmd: the status
// screen, the board and History's refresh all write through it. writes,
// when given, counts the write until it is done.
func JournalState(app *App, quoteID string, w exchange.Withdrawal, writes *sync.WaitGroup) tea.Cmd {
	if app.Journal() == nil {
		return nil
	}
	if writes != nil {
		writes.Add(1)
	}
	return journalCmd(app, func(wr withdrawal.Withdrawer) error {
		if writes != nil {
			defer writes.Done()
		}
		return wr.JournalState(quoteID, w)
	})
}

// journalCmd writes one line of an own withdrawal's journal in a Cmd; a
// failure is said in a toast, whichever screen is on top by then. The
// write is owed from now (app.Writes) until it is made, by the Cmd or by
// the console's end.
func journalCmd(app *App, write func(withdrawal.Withdrawer) error) tea.Cmd {
	if app.Journal() == nil {
		return nil
	}
	w := app.Withdrawer()
	owed := app.Writes.owe(func() error { return write(w) })
	return func() tea.Msg {
		if err := owed.make(); err != nil {
			return tui.ErrorMsg{Err: exchange.UserError{Text: "The journal could not be written (" + err.Error() + "): the history may miss this state; check the disk", Cause: err}}
		}
		return nil
	}
}

// Writes are the journal lines the console's commands were handed and
// have not written yet. Bubble Tea neither waits for the commands still
// out when its program ends nor runs those not started, so a state learned
// just before q (COMPLETED) was lost with the process; the console ends
// with Finish. Nil owes nothing: each write is made by its Cmd alone.
type Writes struct {
	mu   sync.Mutex
	owed map[*owedWrite]bool
}

// owedWrite is one journal write, made once by whichever of its Cmd and
// Finish comes first; the other waits for it (sync.Once).
type owedWrite struct {
	once  sync.Once
	write func() error
	err   error
	by    *Writes
}

// owe keeps write owed until it is made.
func (ws *Writes) owe(write func() error) *owedWrite {
	o := &owedWrite{write: write, by: ws}
	if ws == nil {
		return o
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.owed == nil {
		ws.owed = map[*owedWrite]bool{}
	}
	ws.owed[o] = true
	return o
}

// make writes once, or waits for the write under way, and gives its error.
func (o *owedWrite) make() error {
	o.once.Do(func() {
		o.err = o.write()
		if o.by != nil {
			o.by.mu.Lock()
			delete(o.by.owed, o)
			o.by.mu.Unlock()
		}
	})
	return o.err
}

// Finish makes every write still owed, waiting for those under way, for
// at most bound (another process may hold the journal's lock): the
// console's last act before it gives the terminal back. The error says
// the writes that failed, and those left unmade at the bound.
func (ws *Writes) Finish(bound time.Duration) error {
	if ws == nil {
		return nil
	}
	ws.mu.Lock()
	owed := make([]*owedWrite, 0, len(ws.owed))
	for o := range ws.owed {
		owed = append(owed, o)
	}
	ws.mu.Unlock()
	errs := make(chan error, len(owed))
	for _, o := range owed {
		go func() { errs <- o.make() }()
	}
	timeout := time.After(bound)
	var failed []error
	for made := range len(owed) {
		select {
		case err := <-errs:
			if err != nil {
				failed = append(failed, err)
			}
		case <-timeout:
			failed = append(failed, &UnwrittenError{Lines: len(owed) - made, After: bound})
			return errors.Join(failed...)
		}
	}
	return errors.Join(failed...)
}

// UnwrittenError: journal lines still not written when the console gave
// up waiting for them at its end.
type UnwrittenError struct {
	Lines int
	After time.Duration
}

func (e *UnwrittenError) Error() string {
	if e.Lines == 1 {
		return fmt.Sprintf("a state learned just before the end was not written within %s (another process may hold the journal's lock); it is journaled when its withdrawal is next followed (Home checks unfinished ones)", e.After)
	}
	return fmt.Sprintf("%d states learned just before the end were not written within %s (another process may hold the journal's lock); they are journaled when their withdrawals are next followed (Home checks unfinished ones)", e.Lines, e.After)
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

// End is what the console does once its program has ended: the journal
// writes its commands were handed are made or waited for, for at most
// bound (Writes.Finish), then what the watch board owes its file
// (Flushes.Run). Each error says what it left unwritten.
func (d *Deps) End(bound time.Duration) (journal, board error) {
	journal = d.Writes.Finish(bound)
	return journal, d.Flushes.Run()
}

// Flushes are the writes the console owes at its end, however it ends (q,
// the terminal closed, kill): what the watch board learned since its last
// save. One is kept a key: a board opened again takes over the writes the
// last one of its file left (Swap).
type Flushes struct {
	mu sync.Mutex
	by map[string]func() error
}

// Swap keeps flush under key, and returns the one it replaces, nil for
// none, for the caller to run first. Nil flushes does nothing.
func (f *Flushes) Swap(key string, flush func() error) (old func() error) {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.by == nil {
		f.by = map[string]func() error{}
	}
	old = f.by[key]
	f.by[key] = flush
	return old
}

// Run does every write owed, once; the console calls it when it ends.
func (f *Flushes) Run() error {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	by := f.by
	f.by = nil
	f.mu.Unlock()
	var errs []error
	for _, flush := range by {
		errs = append(errs, flush())
	}
	return errors.Join(errs...)
}

// LookupName names a payout hash or transfer id found, as the board and
// `svcwallet status` say it: a hash shortened as addresses are.
func LookupName(l follow.Lookup) string {
	if l.Kind == follow.PayoutHash {
		return "payout hash " + tui.ShortAddress(l.Text)
	}
	return "transfer id " + l.Text
}
