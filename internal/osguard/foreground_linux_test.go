package osguard

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestTakingTheForegroundBackLeavesSIGTTOUStopping: once a signing
// command's terminal is taken back, SIGTTOU is neither ignored nor blocked:
// left ignored (signal.Ignore, then Reset, which does not undo it), a
// svcwallet continued in the background set the shell's terminal up as
// its own instead of stopping.
func TestTakingTheForegroundBackLeavesSIGTTOUStopping(t *testing.T) {
	runtime.LockOSThread() // the mask asked about is this thread's
	defer runtime.UnlockOSThread()
	bit := uint64(1) << (unix.SIGTTOU - 1)
	if ignored(t)&bit != 0 {
		t.Skip("SIGTTOU was ignored when the test began")
	}
	takeForeground(-1, unix.Getpgrp()) // no terminal: the ioctl fails, the signal handling is the same
	if ignored(t)&bit != 0 {
		t.Fatal("SIGTTOU is left ignored once the terminal is taken back")
	}
	var blocked unix.Sigset_t
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, nil, &blocked); err != nil {
		t.Fatal(err)
	}
	if uint64(blocked.Val[0])&bit != 0 {
		t.Fatal("SIGTTOU is left blocked once the terminal is taken back")
	}
}

// ignored is the process's ignored signals, from /proc.
func ignored(t *testing.T) uint64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "SigIgn:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no SigIgn in /proc/self/status")
	return 0
}
