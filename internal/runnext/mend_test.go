//go:build unix

package runnext

import (
	"errors"
	"fmt"
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// TestThenMend: a file refused for its name, wrapped or not, is followed
// by the doctor run on the environment and config it was refused on; an
// error whose fix names its own command, or none, gets nothing added.
func TestThenMend(t *testing.T) {
	renamed := &osguard.UnsafePathError{What: "the keystore", Fix: osguard.RenameFirst}
	const want = "; then run svcwallet doctor --env prod --config '/my cfg/c.toml' for the command that mends it"
	for err, w := range map[error]string{
		renamed:                         want,
		fmt.Errorf("open: %w", renamed): want,
		&osguard.UnsafePathError{What: "the keystore", Fix: "run chmod 600 /k"}: "",
		errors.New(osguard.RenameFirst):                                         "",
	} {
		if got := ThenMend("/my cfg/c.toml", "prod", err); got != w {
			t.Errorf("ThenMend(%v) = %q, want %q", err, got, w)
		}
	}
}
