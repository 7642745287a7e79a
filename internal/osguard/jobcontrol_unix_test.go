//go:build !windows

package osguard

import (
	"os"
	"os/signal"
	"testing"

	"golang.org/x/sys/unix"
)

// TestCtrlZStopsAJobOnly: ctrl+z stops svcwallet where a shell with job
// control would continue it, in a group other than the session's, whoever
// its parent (go run's go shares it), and not where the kernel would drop
// the stop: the session's own group (tmux or a terminal starting it, exec
// from a shell).
func TestCtrlZStopsAJobOnly(t *testing.T) {
	const session = 100
	if !inAJob(200, session) {
		t.Error("a shell's job is not stopped")
	}
	if inAJob(session, session) {
		t.Error("the session's own group, orphaned, waits for a continue that never comes")
	}
}

// TestAStopAskedBeforeAStopIsThatStop: a second stop asked before the
// first stopped svcwallet (two kill -TSTP at once) is taken by the first:
// left for the key reader, it stopped svcwallet again after fg, so one
// stop needed two fg.
func TestAStopAskedBeforeAStopIsThatStop(t *testing.T) {
	was := stopSelf
	defer func() { stopSelf = was }()
	stopSelf = func() { _ = unix.Kill(os.Getpid(), unix.SIGCONT) } // continued at once
	asked := make(chan os.Signal, 1)
	defer signal.Stop(asked)
	asked <- unix.SIGTSTP // the second stop, asked before the first stopped
	stopJob(asked)
	select {
	case <-asked:
		t.Fatal("a stop asked before the stop is left to stop svcwallet again")
	default:
	}
}
