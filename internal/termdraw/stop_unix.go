//go:build !windows

package termdraw

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// jobStopper is what stops the console as a shell's job until it is
// continued (fg), or nil when no shell would continue it (inAJob).
func jobStopper() func() {
	group, err := unix.Getpgid(0)
	session, serr := unix.Getsid(0)
	if err != nil || serr != nil || !inAJob(group, session) {
		return nil
	}
	return func() {
		continued := make(chan os.Signal, 1)
		signal.Notify(continued, unix.SIGCONT)
		defer signal.Stop(continued)
		_ = unix.Kill(0, unix.SIGTSTP) // the whole job: a signing command it runs too, go run's go
		<-continued
	}
}

// inAJob: the process group is a job a shell with job control made, as
// such shells give each job a group of its own, the console's parent in it
// too (go run). The session's own group (tmux or a terminal starting the
// console, a shell without job control, exec) is orphaned: the kernel
// drops its stop, and a wait for the continue would never end.
func inAJob(group, session int) bool { return group != session }
