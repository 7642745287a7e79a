//go:build !windows

package osguard

import "testing"

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
