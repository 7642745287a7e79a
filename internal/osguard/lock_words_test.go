package osguard

import (
	"errors"
	"strings"
	"syscall"
	"testing"
)

// TestNoLocksSaysWhatToDo: a lock the filesystem cannot give (flock's
// ENOLCK, an NFS mount without lockd) is said in words: which file, that
// its filesystem gives no locks, and to keep the state folder on a local
// disk or move it with $XDG_STATE_HOME. It said "lock PATH: no locks
// available", nothing of what to do.
func TestNoLocksSaysWhatToDo(t *testing.T) {
	const path = "/mnt/nfs/state/svcwallet/journal.jsonl.lock"
	err := lockError(path, syscall.ENOLCK)
	var nl *NoLocksError
	if !errors.As(err, &nl) || !errors.Is(err, syscall.ENOLCK) {
		t.Fatalf("%v: not a *NoLocksError of ENOLCK", err)
	}
	for _, want := range []string{path, "gives no locks", "local disk", "$XDG_STATE_HOME"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if other := lockError(path, syscall.EBADF); errors.As(other, &nl) {
		t.Errorf("another failure said as no locks: %v", other)
	}
}
