//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package osguard

// endWithLeader does nothing here: on Windows the job object ends what the
// child started once it has ended; elsewhere (Solaris, AIX) no wait for
// the leader's end reaps nothing, and once it is reaped its group's id may
// be another's.
func endWithLeader(int) {}
