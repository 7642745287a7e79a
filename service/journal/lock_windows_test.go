//go:build windows

package journal

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// TestExclusiveOnWindows: while one holder has the journal, another handle
// on its lock file cannot lock it (what a second svcwallet process would
// wait on); once unlocked, it can.
func TestExclusiveOnWindows(t *testing.T) {
	j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := j.Exclusive()
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.Open(j.Path() + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	h := windows.Handle(other.Fd())
	try := func() error {
		return windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, new(windows.Overlapped))
	}
	if err := try(); !errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		t.Fatalf("a second holder took the lock while it was held: %v", err)
	}
	unlock()
	if err := try(); err != nil {
		t.Fatalf("the lock is still held after unlock: %v", err)
	}
}
