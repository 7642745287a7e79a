package osguard

import "golang.org/x/sys/unix"

// endWithLeader waits for the group leader pid to end, without reaping it,
// then kills its group: while it is not reaped its pid, the group's id, is
// no other process's, so the kill reaches only what it started.
func endWithLeader(pid int) {
	var info unix.Siginfo
	var err error = unix.EINTR
	for err == unix.EINTR {
		err = unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
	}
	if err == nil {
		_ = unix.Kill(-pid, unix.SIGKILL)
	}
}
