package osguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// errScanning stands for Windows' sharing violation in the tests: what a
// rename over a state file gives while another program (a virus scanner,
// a backup tool) holds it open.
var errScanning = errors.New("the process cannot access the file because it is being used by another process")

// scannedFor makes a rename over a state file fail as a scanner's hold
// does, the first times of them, counting the waits between (on a clock
// whose every wait is over at once).
func scannedFor(t *testing.T, times int) (renames, waits *int) {
	renames, waits = new(int), new(int)
	wasRename, wasHeld, wasAfter := renameOver, heldOpen, replaceAfter
	t.Cleanup(func() { renameOver, heldOpen, replaceAfter = wasRename, wasHeld, wasAfter })
	renameOver = func(from, to string) error {
		if *renames++; *renames <= times {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: errScanning}
		}
		return wasRename(from, to)
	}
	heldOpen = func(err error) bool { return errors.Is(err, errScanning) }
	replaceAfter = func(d time.Duration) <-chan time.Time {
		if d != PollEvery {
			t.Errorf("a wait of %s, not PollEvery", d)
		}
		*waits++
		ch := make(chan time.Time, 1)
		ch <- time.Time{}
		return ch
	}
	return renames, waits
}

// TestStateFileHeldOpenIsTriedAgain: on Windows a program that holds a
// state file open (a virus scanner reading the journal's record) makes
// the rename over it fail with a sharing violation, and a line before a
// send whose record could not be replaced was refused. The rename is
// tried again every PollEvery for ReplaceRetryFor; a hold that ends within
// it is not seen, and one that lasts is said: the file, that another
// program holds it, and what to do. Any other failure is not tried again.
func TestStateFileHeldOpenIsTriedAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl.written")
	if err := WriteStateFile(path, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	renames, waits := scannedFor(t, 3)
	if err := WriteStateFile(path, []byte("new\n")); err != nil {
		t.Fatalf("a hold of three tries: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" || *renames != 4 || *waits != 3 {
		t.Fatalf("after a hold of three tries: %q, %d renames, %d waits", b, *renames, *waits)
	}

	tries := int(ReplaceRetryFor/PollEvery) + 1
	renames, waits = scannedFor(t, 1<<30)
	err := WriteStateFile(path, []byte("newer\n"))
	var held *HeldOpenError
	if !errors.As(err, &held) || !errors.Is(err, errScanning) {
		t.Fatalf("a hold that lasts: %v, want a *HeldOpenError", err)
	}
	if *renames != tries || *waits != tries-1 {
		t.Errorf("%d renames, %d waits; want %d tries over %s", *renames, *waits, tries, ReplaceRetryFor)
	}
	for _, want := range []string{path, "another program", "virus scanner", "try again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("the file after a rename given up: %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}

	held = &HeldOpenError{Path: path, Waited: ReplaceRetryFor, Err: &os.LinkError{Op: "rename", Old: path + ".tmp1", New: path, Err: syscall.EBUSY}}
	if said := held.Error(); !strings.Contains(said, syscall.EBUSY.Error()) || strings.Contains(said, ".tmp1") {
		t.Errorf("a refusal the system worded: %q, want its words and not the temporary file", said)
	}

	renames, _ = scannedFor(t, 0)
	renameOver = func(string, string) error { *renames++; return syscall.EACCES }
	if err := WriteStateFile(path, []byte("x\n")); !errors.Is(err, syscall.EACCES) || *renames != 1 {
		t.Errorf("another failure: %v after %d renames, want it at once", err, *renames)
	}
}
