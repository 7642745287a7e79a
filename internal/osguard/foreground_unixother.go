//go:build unix && !linux

package osguard

import (
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// takeForeground makes group own the foreground of the terminal fd again,
// and says whether it does.
// Set from the background, it would be sent SIGTTOU, which stops
// svcwallet: it is ignored for the call. Here x/sys gives no thread's
// signal mask, and os/signal cannot put an ignored SIGTTOU back to
// stopping (Reset leaves it ignored), which Linux's takeForeground avoids.
func takeForeground(fd, own int) bool {
	signal.Ignore(syscall.SIGTTOU)
	err := unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, own)
	signal.Reset(syscall.SIGTTOU)
	return err == nil
}
