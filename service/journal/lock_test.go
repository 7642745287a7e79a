//go:build unix

package journal

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestExclusive: while one holder has the journal, another open of its lock
// file cannot take it (what a second svcwallet process would wait on);
// once unlocked, it can.
func TestExclusive(t *testing.T) {
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
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Fatalf("a second holder took the lock while it was held: %v", err)
	}
	unlock()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatalf("the lock is still held after unlock: %v", err)
	}
	if info, err := os.Stat(j.Path() + ".lock"); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("lock file %v (%v), want 0600", info, err)
	}
}
