//go:build !windows

package osguard

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// JobControl gives stop, which stops svcwallet as a shell's job until it
// is continued (fg), and asked, on which a stop sent to it comes (SIGTSTP:
// ctrl+z while keys are read, kill, the shell's job control); both nil
// where no shell would continue it (inAJob), which the kernel then keeps
// running through such a stop. The console's drawer and plain mode's key
// reading catch the stop this way, to make ready before they stop.
func JobControl() (stop func(), asked chan os.Signal) {
	group, err := unix.Getpgid(0)
	session, serr := unix.Getsid(0)
	if err != nil || serr != nil || !inAJob(group, session) {
		return nil, nil
	}
	asked = make(chan os.Signal, 1)
	signal.Notify(asked, unix.SIGTSTP)
	return func() { stopJob(asked) }, asked
}

// stopJob stops svcwallet and the rest of its job until continued, then
// catches stops again.
func stopJob(asked chan os.Signal) {
	continued := make(chan os.Signal, 1)
	signal.Notify(continued, unix.SIGCONT)
	defer signal.Stop(continued)
	// SIGTSTP caught no longer stops svcwallet: the rest of the job
	// (a signing command it runs, go run's go) is sent it, ignored
	// here, and svcwallet stops itself.
	signal.Ignore(unix.SIGTSTP)
	stopSelf()
	<-continued
	// A stop asked before this one stopped (two kill -TSTP at once) is
	// this one: left, it stopped svcwallet again, one fg each.
	select {
	case <-asked:
	default:
	}
	signal.Notify(asked, unix.SIGTSTP)
}

// stopSelf stops the job, svcwallet last.
var stopSelf = func() {
	_ = unix.Kill(0, unix.SIGTSTP)
	_ = unix.Kill(os.Getpid(), unix.SIGSTOP)
}

// inAJob: the process group is a job a shell with job control made, as
// such shells give each job a group of its own, svcwallet's parent in it
// too (go run). The session's own group (tmux or a terminal starting
// svcwallet, a shell without job control, exec) is orphaned: the kernel
// drops its stop, and a wait for the continue would never end.
func inAJob(group, session int) bool { return group != session }
