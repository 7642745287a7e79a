package safetext

import "testing"

// TestUserShell: commands are printed for PowerShell on Windows and for a
// POSIX shell on every other system.
func TestUserShell(t *testing.T) {
	for goos, want := range map[string]Shell{"windows": PowerShell, "linux": POSIX, "darwin": POSIX, "freebsd": POSIX} {
		if got := shellOf(goos); got != want {
			t.Errorf("%s: %v, want %v", goos, got, want)
		}
	}
}
