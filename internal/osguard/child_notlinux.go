//go:build !linux

package osguard

// endWithLeader does nothing here: on Windows the job object ends what the
// child started once it has ended; elsewhere a group cannot be killed
// before its leader is reaped, and after it its id may be another's.
func endWithLeader(int) {}
