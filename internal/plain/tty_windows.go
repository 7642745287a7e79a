package plain

import (
	"context"
	"io"
	"os"

	"golang.org/x/sys/windows"
	"golang.org/x/term"
)

// discardInput discards what the console f holds typed or pasted and not
// yet read, and reports whether it held any input event.
func discardInput(f *os.File) (bool, error) {
	h := windows.Handle(f.Fd())
	var n uint32
	_ = windows.GetNumberOfConsoleInputEvents(h, &n)
	return n > 0, windows.FlushConsoleInputBuffer(h)
}

// readHidden reads a line of the console f with echo off; when ctx ends
// (ctrl+c) first, the console is put back as it was. A Windows console
// has no job control to stop and continue a read.
func readHidden(ctx context.Context, f *os.File, prompt func()) (string, error) {
	fd := int(f.Fd())
	state, err := term.GetState(fd)
	if err != nil {
		return "", err
	}
	// The console echoes a key when a read takes it, so one typed before
	// ReadPassword's read is not echoed either.
	prompt()
	done := make(chan lineRead, 1)
	go func() {
		b, err := term.ReadPassword(fd)
		done <- lineRead{string(b), err}
	}()
	select {
	case r := <-done:
		return r.line, r.err
	case <-ctx.Done():
		_ = term.Restore(fd, state)
		return "", ErrInterrupted
	}
}

// keysOf is nil on Windows: a console's input records carry no time, so
// what a paste brings cannot be told from typing; the discard and the
// dwell hold alone.
func keysOf(*os.File) func() (io.ReadCloser, error) { return nil }
