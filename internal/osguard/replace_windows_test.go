package osguard

import (
	"os"
	"testing"

	"golang.org/x/sys/windows"
)

// TestHeldOpenOnWindows: the two refusals a scanner's hold gives a rename
// over a state file are tried again (TestStateFileHeldOpenIsTriedAgain),
// another failure is not.
func TestHeldOpenOnWindows(t *testing.T) {
	for err, want := range map[error]bool{
		&os.LinkError{Op: "rename", Err: windows.ERROR_SHARING_VIOLATION}: true,
		&os.LinkError{Op: "rename", Err: windows.ERROR_ACCESS_DENIED}:     true,
		&os.LinkError{Op: "rename", Err: windows.ERROR_PATH_NOT_FOUND}:    false,
	} {
		if isHeldOpen(err) != want {
			t.Errorf("isHeldOpen(%v) = %v", err, !want)
		}
	}
}
