//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// TestEditGivesUpOnAHeldFolder: a config folder's lock held past any
// edit's time (anyone who can read the folder can hold it, flock needs no
// write) stops the edit with an error naming the config and what to do,
// the config unchanged, after the wait was said once; it is never taken
// as a folder that cannot be locked, whose fallback lock file would let
// the edit run beside the holder's. It waited for ever, saying nothing.
func TestEditGivesUpOnAHeldFolder(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	path := raceConfig(t)
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	if err := syscall.Flock(int(dir.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	var said []string
	defer osguard.SetLockWaits(osguard.LockWaits{
		After: func(time.Duration) <-chan time.Time {
			ch := make(chan time.Time, 1)
			ch <- time.Time{}
			return ch
		},
		Say: func(w osguard.Waiting) { said = append(said, w.String()) },
	})()
	_, err = editConfig(path, func(text string, _ Config) (string, error) {
		return "bell = true\n" + text, nil
	}, func(_, after Config) bool { return after.Bell })
	if !errors.As(err, new(*osguard.LockHeldError)) {
		t.Fatalf("an edit of a config whose folder is held gave %v", err)
	}
	for _, want := range []string{path, "end that process"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], "editing the config "+path) {
		t.Errorf("the wait was said as %q", said)
	}
	if b, _ := os.ReadFile(path); string(b) != twoEnvs {
		t.Errorf("the config was written while its folder was held:\n%s", b)
	}
}
