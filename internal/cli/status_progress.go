package cli

import (
	"fmt"
	"io"
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
		c.live.clear()
		return
	}
	done := "asked"
	if f.watch {
		done = "ended"
	}
	c.live.show(fmt.Sprintf("%s: %d of %d %s…", c.app.name, settled, total, done))
}

// before is w with the progress line cleared before each write to it, so
// each line of status starts at the left edge: after it, a journal's
// failed write began mid-row, and its fit split a word where the edge fell.
func (l *liveLine) before(w io.Writer) io.Writer { return clearedFirst{w, l} }

type clearedFirst struct {
	w    io.Writer
	live *liveLine
}

func (c clearedFirst) Write(p []byte) (int, error) {
	c.live.clear()
	return c.w.Write(p)
}

// writers is c with its streams for people built once for the command
// (plain.Fitted asks the terminal's width), the progress line cleared
// before each line: out on stdout, errOut on stderr.
func (c statusCmd) writers() statusCmd {
	if c.live == nil {
		c.live = &liveLine{term: c.env.Stderr}
		c.out = plain.FittedFor(c.live.before(c.env.Stdout), c.env.Stdout)
		c.errOut = plain.FittedFor(c.live.before(c.env.Stderr), c.env.Stderr)
	}
	return c
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
	fmt.Fprintf(c.errOut, "%s: %d ids at %d a second take about %s; the records print once every id is answered (an interrupt prints those answered so far)\n",
		c.app.name, n, rate, took.Round(time.Second))
}
