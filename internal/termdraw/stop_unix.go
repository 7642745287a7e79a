//go:build !windows

package termdraw

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// jobStopper is what stops the console as a shell's job until it is
// continued (fg), or nil when no shell would continue it: its process
// group is orphaned (started by tmux or a terminal with no shell between),
// where the kernel drops the stop and a wait for the continue never ends.
func jobStopper() func() {
	parent := os.Getppid()
	group, err := unix.Getpgid(0)
	parentGroup, perr := unix.Getpgid(parent)
	session, serr := unix.Getsid(0)
	parentSession, pserr := unix.Getsid(parent)
	if err != nil || perr != nil || serr != nil || pserr != nil || group == parentGroup || session != parentSession {
		return nil
	}
	return func() {
		continued := make(chan os.Signal, 1)
		signal.Notify(continued, unix.SIGCONT)
		defer signal.Stop(continued)
		_ = unix.Kill(0, unix.SIGTSTP) // the whole job: a signing command it runs too
		<-continued
	}
}
