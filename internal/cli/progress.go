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
	shown := false
	return func(read, size int64) {
		if start.IsZero() {
			start = now()
		}
		switch {
		case read >= size:
			if shown {
				fmt.Fprint(w, "\r\x1b[K")
			}
			start, shown = time.Time{}, false
		case now().Sub(start) >= time.Second:
			fmt.Fprint(w, "\r"+plain.Cut(w, fmt.Sprintf("%s: reading the journal into its index: %d%% of %d MB", name, read*100/size, (size+1<<20-1)>>20)))
			shown = true
		}
	}
}
