//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos

package plain

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// discardInput discards what the terminal f holds typed or pasted and not
// yet read: its settings set again as they are, with the flush that
// discards pending input (tcsetattr's TCSAFLUSH).
func discardInput(f *os.File) error {
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return err
	}
	return unix.IoctlSetTermios(fd, setTermiosFlush, t)
}

// readHidden reads a line of the terminal f with echo off, and puts f back
// as it was once the line is read or ctx ends. A stop and continue (ctrl+z,
// then fg) gives the terminal back with the shell's settings, echo on:
// echo goes off again at SIGCONT, before the next key is typed.
func readHidden(ctx context.Context, f *os.File, prompt func()) (string, error) {
	fd := int(f.Fd())
	was, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return "", err
	}
	hidden := *was
	hidden.Lflag &^= unix.ECHO
	hidden.Lflag |= unix.ICANON | unix.ISIG
	hidden.Iflag |= unix.ICRNL
	resumed := make(chan os.Signal, 1)
	signal.Notify(resumed, syscall.SIGCONT)
	defer signal.Stop(resumed)
	if err := unix.IoctlSetTermios(fd, setTermios, &hidden); err != nil {
		return "", err
	}
	defer unix.IoctlSetTermios(fd, setTermios, was)
	prompt()
	done := make(chan lineRead, 1)
	go func() {
		line, err := ReadLine(f)
		done <- lineRead{line, err}
	}()
	for {
		select {
		case <-resumed:
			_ = unix.IoctlSetTermios(fd, setTermios, &hidden)
		case r := <-done:
			return r.line, r.err
		case <-ctx.Done():
			return "", ErrInterrupted
		}
	}
}
