//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package osguard

import "golang.org/x/sys/unix"

// endWithLeader waits for the group leader pid to end (kqueue's NOTE_EXIT,
// as waitid does on Linux: it reaps nothing), then kills its group: while
// it is not reaped its pid, the group's id, is no other process's, so the
// kill reaches only what it started. A leader already ended when asked
// about is refused (ESRCH): unreaped, it is the same and its group is
// killed all the same. Any other refusal leaves the group as it is.
func endWithLeader(pid int) {
	kq, err := unix.Kqueue()
	if err != nil {
		return
	}
	defer unix.Close(kq)
	change := make([]unix.Kevent_t, 1)
	unix.SetKevent(&change[0], pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	change[0].Fflags = unix.NOTE_EXIT
	_, err = kevent(kq, change, nil)
	switch {
	case err == unix.ESRCH:
	case err != nil:
		return
	default:
		if _, err = kevent(kq, nil, make([]unix.Kevent_t, 1)); err != nil {
			return
		}
	}
	_ = unix.Kill(-pid, unix.SIGKILL)
}

// kevent is unix.Kevent with no timeout, taken again when a signal
// interrupts it.
func kevent(kq int, change, events []unix.Kevent_t) (int, error) {
	for {
		n, err := unix.Kevent(kq, change, events, nil)
		if err != unix.EINTR {
			return n, err
		}
	}
}
