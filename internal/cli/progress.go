package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/journal"
)

// openJournal opens the journal at path for the command name: when its
// stderr is a terminal, a long first read of it (a journal changed
// outside svcwallet is read whole into its index) says how far it has
// come there. Such a command's heap is mostly the journal's index, which
// holds no pointers and costs the collector little to mark: it collects
// when the heap has grown by half, not doubled (1M journal lines: 49 MB
// at most, not 61 to 91).
func openJournal(env CLIEnv, name, path string) (*journal.Journal, error) {
	debug.SetGCPercent(50)
	j, err := journal.Open(path)
	if err == nil && plain.IsTerminal(env.Stderr) {
		j.Progress(progressLine(env.Stderr, name, time.Now))
	}
	return j, err
}

// progressLine says a read's progress on one line of w, rewritten in
// place, once the read has taken a second; the line is cleared when the
// read ends. A read that ends within the second says nothing.
func progressLine(w io.Writer, name string, now func() time.Time) func(read, size int64) {
	var start time.Time
	live := &liveLine{term: w}
	return func(read, size int64) {
		if start.IsZero() {
			start = now()
		}
		switch {
		case read >= size:
			live.clear()
			start = time.Time{}
		case now().Sub(start) >= time.Second:
			live.show(fmt.Sprintf("%s: reading the journal into its index: %d%% of %d MB", name, read*100/size, (size+1<<20-1)>>20))
		}
	}
}

// liveLine is a line drawn over on a terminal (a progress line), shown
// and cleared here alone: the journal's reading progress and status's.
type liveLine struct {
	term  io.Writer
	shown bool
}

// show draws line over the live line, cut to the terminal's width: a
// line wider wrapped, and its rewrite in place began a row lower, its
// first rows left.
func (l *liveLine) show(line string) {
	fmt.Fprint(l.term, "\r\x1b[K"+plain.Cut(l.term, line))
	l.shown = true
}

func (l *liveLine) clear() {
	if l.shown {
		fmt.Fprint(l.term, "\r\x1b[K")
		l.shown = false
	}
}
