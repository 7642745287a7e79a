package cli

import "fmt"

// onTerminal reports whether the status's notes go to a person: stderr is
// a terminal.
func (c statusCmd) onTerminal() bool {
	if c.terminal != nil {
		return c.terminal()
	}
	return isTerminal(c.env.Stderr)
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
