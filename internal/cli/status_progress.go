package cli

import (
	"fmt"
	"time"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/follow"
)

// onTerminal reports whether the status's notes go to a person: stderr is
// a terminal.
func (c statusCmd) onTerminal() bool {
	if c.terminal != nil {
		return c.terminal()
	}
	return plain.IsTerminal(c.env.Stderr)
}

// progress says on a terminal's stderr, in one line drawn over, how many
// of several ids are settled, so that 50 ids asked within the budget do
// not look stuck; total 0 clears the line before the records and the
// totals (`status -` of 50 ids takes 10 s at 5 a second).
func (c statusCmd) progress(f statusFlags, settled, total int) {
	if len(f.quoteIDs) < 2 || !c.onTerminal() {
		return
	}
	if total == 0 {
		fmt.Fprint(c.env.Stderr, "\r\x1b[K")
		return
	}
	done := "asked"
	if f.watch {
		done = "ended"
	}
	fmt.Fprintf(c.env.Stderr, "\r\x1b[K%s: %d of %d %s…", c.app.name, settled, total, done)
}

// longRun is how long asking every id once must take for a run off a
// terminal to say so as it starts: its records print at its end, and
// nothing else would tell a script's log that it is not stuck.
const longRun = time.Minute

// sayLongRun says, off a terminal and without --watch, how long n ids
// asked once at rate a second take, when that is longRun or more, and
// what prints when.
func (c statusCmd) sayLongRun(f statusFlags, n, rate int) {
	took := follow.AskedOnceIn(n, rate)
	if f.watch || c.onTerminal() || took < longRun {
		return
	}
	fmt.Fprintf(plain.Fitted(c.env.Stderr), "%s: %d ids at %d a second take about %s; the records print once every id is answered (an interrupt prints those answered so far)\n",
		c.app.name, n, rate, took.Round(time.Second))
}
