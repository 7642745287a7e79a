package plain

import (
	"context"
	"io"
	"os"

	xwindows "github.com/charmbracelet/x/windows"
	"golang.org/x/sys/windows"
	"golang.org/x/term"
)

// discardInput discards what the console f holds typed or pasted and not
// yet read, and reports whether it held a key pressed.
func discardInput(f *os.File) (bool, error) {
	h := windows.Handle(f.Fd())
	var records [128]xwindows.InputRecord
	var n uint32
	held := false
	if xwindows.PeekConsoleInput(h, &records[0], uint32(len(records)), &n) == nil {
		held = keyPressed(records[:n])
	}
	return held, windows.FlushConsoleInputBuffer(h)
}

// keyPressed reports whether records hold a key pressed. A key's release
// is no typing: the Enter that answered the question before is released
// after its line is read (a pseudo console queues the two at once), and
// focus, mouse and size records come with no key at all.
func keyPressed(records []xwindows.InputRecord) bool {
	for _, r := range records {
		if r.EventType == windows.KEY_EVENT && r.KeyEvent().KeyDown {
			return true
		}
	}
	return false
}

// readHidden reads a line of the console f with echo off; when ctx ends
// (ctrl+c) first, the console is put back as it was. A Windows console
// has no job control to stop and continue a read.
func readHidden(ctx context.Context, f *os.File, _ Gate, prompt func()) (string, error) {
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

// takeOf is nil on Windows: a console's input is records, not the bytes
// a paste's marks are in.
func takeOf(*os.File) func() ([]byte, error) { return nil }

// hushOf turns the console f's echo off (Gate.Hush) by its mode. Its
// console echoes a line only as a read takes it, and every line question
// puts the mode back first (echoAgain); what it does is what the hush
// holds there: what was typed meanwhile, shown by the next line's read,
// and a passphrase typed ahead where none was asked among it, is
// discarded first and said.
func hushOf(f *os.File) func() (func(), error) {
	h := windows.Handle(f.Fd())
	return func() (func(), error) {
		return consoleHush(func() (uint32, error) {
			var mode uint32
			err := windows.GetConsoleMode(h, &mode)
			return mode, err
		}, func(mode uint32) error { return windows.SetConsoleMode(h, mode) })
	}
}
