//go:build unix

package osguard

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestWaitSaysWhatTheHolderDoes: a waiter says what the lock's holder
// does, from the mark the holder left in the lock file (its purpose and
// pid), in the waiter's own words for that purpose: a holder that only
// checks was said "writing". The mark is read as anything from the disk
// is: one the waiter does not know, not of its shape, holding an escape,
// or naming another process than the one the system says holds the lock
// (an earlier holder's, left by one that ended) is not taken, and the
// waiter's own words stand. A holder blanks its mark before letting go.
func TestWaitSaysWhatTheHolderDoes(t *testing.T) {
	marks := map[string]string{"check": "checking the journal J against its record", "write": "writing a line to the journal J"}
	const own = "using the journal J or its record"
	waitOn := func(path string) (string, *LockHeldError) {
		t.Helper()
		var held *LockHeldError
		if err := lockOnce(path, Wait{Doing: own, Marks: marks}); !errors.As(err, &held) {
			t.Fatalf("a held lock gave %v, not a *LockHeldError", err)
		}
		return held.Error(), held
	}
	newTickedWaits(t, nil)
	path, _ := heldLockFile(t)
	holder, err := LockFile(path+"2", Wait{Doing: "x", Mark: "check"})
	if err != nil {
		t.Fatal(err)
	}
	said, held := waitOn(path + "2")
	if held.Doing != marks["check"] || !strings.Contains(said, marks["check"]) || strings.Contains(said, "writing") {
		t.Errorf("a holder that checks, said as %q", said)
	}
	if runtime.GOOS != "linux" && !strings.Contains(said, fmt.Sprintf("process %d", os.Getpid())) {
		t.Errorf("the holder's pid from its mark not said where the system names none: %q", said)
	}
	holder()
	if b, err := os.ReadFile(path + "2"); err != nil || strings.TrimSpace(string(b[min(markAt, len(b)):])) != "" {
		t.Errorf("the mark left after the lock was let go: %q, %v", b, err)
	}

	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pid := os.Getpid()
	for _, planted := range []string{
		"", "fsck 1", "check", "check x", "check -1", "check 12345678901",
		"check\x1b[2J " + fmt.Sprint(pid), "write " + fmt.Sprint(pid) + "\x1b]52;c;aGk=\a",
		"check " + fmt.Sprint(pid) + " " + fmt.Sprint(pid), "check +" + fmt.Sprint(pid),
	} {
		if _, err := f.WriteAt([]byte(planted+strings.Repeat(" ", markSize)), markAt); err != nil {
			t.Fatal(err)
		}
		if said, held := waitOn(path); held.Doing != own || strings.Contains(said, "\x1b") {
			t.Errorf("the mark %q taken: %q", planted, said)
		}
	}
	if runtime.GOOS == "linux" { // the system names the holder: a mark of another pid is stale
		if _, err := f.WriteAt([]byte("check 1"+strings.Repeat(" ", markSize)), markAt); err != nil {
			t.Fatal(err)
		}
		if said, held := waitOn(path); held.Doing != own {
			t.Errorf("a mark of another process than the holder taken: %q", said)
		}
	}
}
