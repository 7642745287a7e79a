package osguard

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// takeForeground makes group own the foreground of the terminal fd again,
// and says whether it does.
// Set from the background, it would be sent SIGTTOU, which stops
// svcwallet: SIGTTOU is blocked on this thread for the call, not ignored,
// since os/signal cannot put an ignored SIGTTOU back to stopping, and a
// svcwallet later continued in the background must stop when it sets the
// terminal up, not take the shell's terminal.
func takeForeground(fd, own int) bool {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ttou, was unix.Sigset_t
	ttou.Val[0] = 1 << (unix.SIGTTOU - 1) // the first word, on every architecture
	if unix.PthreadSigmask(unix.SIG_BLOCK, &ttou, &was) != nil {
		return false
	}
	err := unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, own)
	_ = unix.PthreadSigmask(unix.SIG_SETMASK, &was, nil)
	return err == nil
}
