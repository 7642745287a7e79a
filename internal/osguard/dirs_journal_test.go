package osguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestEarlierJournalFencedOnceMoved: once the withdrawal journal moved, an
// earlier version still running (a console left open over the upgrade)
// cannot write a journal at its old place: it opened it there again, made
// anew, journaled its withdrawals where this version never reads and sent
// them, so the repeat guard never saw them. A folder stands in its place,
// which an earlier version cannot append to, so it sends nothing. A
// journal file found at the old place beside the new one is said, every
// run, never left silent.
func TestEarlierJournalFencedOnceMoved(t *testing.T) {
	root := t.TempDir()
	was := Dirs{State: filepath.Join(root, "old-state")}
	now := Dirs{State: filepath.Join(root, "local")}
	old := filepath.Join(was.State, JournalName)
	if err := os.MkdirAll(was.State, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte("old journal\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if moved := moveEarlier(was, now); len(moved) != 1 || moved[0].Err != nil {
		t.Fatalf("moved %+v, want the journal", moved)
	}
	// As an earlier version makes its state folder and appends to its
	// journal (journal.openAppend).
	if err := os.MkdirAll(was.State, 0o700); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenPrivate(old, os.O_CREATE|os.O_APPEND|os.O_RDWR); err == nil {
		f.Close()
		t.Fatal("an earlier version can still make a journal at the old place once it moved")
	}
	if again := moveEarlier(was, now); len(again) != 0 {
		t.Errorf("a second run says %+v of the fence", again)
	}
	// The fence itself never moves, even where no journal is now.
	if err := os.Remove(filepath.Join(now.State, JournalName)); err != nil {
		t.Fatal(err)
	}
	if again := moveEarlier(was, now); len(again) != 0 {
		t.Errorf("with no journal in the new place, a run says %+v of the fence", again)
	}
	if _, err := os.Lstat(filepath.Join(now.State, JournalName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the fence moved to the journal's new place: %v", err)
	}
	if err := os.WriteFile(filepath.Join(now.State, JournalName), []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A journal the fence came too late for (or written before it) is said.
	if err := os.Remove(old); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte("later\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		beside := moveEarlier(was, now)
		if len(beside) != 1 || !errors.Is(beside[0].Err, ErrLeftBeside) || beside[0].From != old || beside[0].NotMoved() != nil {
			t.Fatalf("a journal beside the moved one: %+v, want it said left beside, not said not moved", beside)
		}
	}
	// Moved away as the words advise, the fence is put back: the earlier
	// version that wrote it may still run, and would make it anew unseen.
	if err := os.Rename(old, filepath.Join(root, "looked-up.jsonl")); err != nil {
		t.Fatal(err)
	}
	if again := moveEarlier(was, now); len(again) != 0 {
		t.Errorf("once the journal beside was moved away, a run says %+v", again)
	}
	if fi, err := os.Lstat(old); err != nil || !fi.IsDir() {
		t.Errorf("once the journal beside was moved away, its place is unfenced: %v", err)
	}
}

// TestEarlierJournalNotMovedSaidBeside: a journal whose move failed (its
// new place could not be looked at or its folder made, a rename refused:
// on Windows an earlier svcwallet still open holds it) stays at its
// earlier place, as unseen by the repeat guard as one left beside a
// journal in use, and the earlier version may still send from it. It is
// among the journals every face says before a withdrawal (LeftBeside), with
// why, not only in a start-up line the console's full screen covers; any
// other entry not moved is said not moved, never skipped unsaid.
func TestEarlierJournalNotMovedSaidBeside(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(root, "dangling")
	if err := os.Symlink(filepath.Join(root, "nowhere"), dangling); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, now := range []Dirs{{State: filepath.Join(file, AppName)}, {State: filepath.Join(dangling, AppName)}} {
		was := Dirs{State: filepath.Join(root, "old-state")}
		old := filepath.Join(was.State, JournalName)
		if err := os.MkdirAll(was.State, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{JournalName, "bridge-pins.json"} {
			if err := os.WriteFile(filepath.Join(was.State, name), []byte("earlier\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		moved := moveEarlier(was, now)
		if len(moved) != 2 || moved[0].Err == nil || moved[1].Err == nil {
			t.Fatalf("to %s: moved %+v, want the journal and the pins, neither moved, each with why", now.State, moved)
		}
		beside := LeftBeside(moved)
		if len(beside) != 1 || beside[0].From != old || !errors.Is(beside[0].Err, ErrLeftBeside) {
			t.Fatalf("to %s: LeftBeside gives %+v, want the journal not moved alone", now.State, beside)
		}
		if why := beside[0].Err.Error(); !strings.Contains(why, "could not be moved (") || strings.Contains(why, "at the new place already") {
			t.Errorf("to %s: the journal not moved says %q, not why", now.State, why)
		}
		// Why is the system's reason, the paths (named escaped by the
		// faces) left out.
		if nm := beside[0].NotMoved(); nm == nil || nm.Why() == "" || strings.Contains(nm.Why(), root) {
			t.Errorf("to %s: the journal not moved gives %+v, not the reason alone", now.State, nm)
		}
		if fi, err := os.Lstat(old); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("to %s: the journal not moved is no longer at its earlier place: %v", now.State, err)
		}
	}
}

// TestEarlierJournalLinkedNotSaidUnseen: a journal linked at its new place
// whose earlier name could not be removed (Windows: an earlier version
// holds it open) is one file at both names: what either writes is in the
// journal in use, so it is not among the journals said unseen
// (LeftBeside), only its name left (LinkedError, with why); the next run
// removes that name and fences the place.
func TestEarlierJournalLinkedNotSaidUnseen(t *testing.T) {
	root := t.TempDir()
	was, now := Dirs{State: filepath.Join(root, "old-state")}, Dirs{State: filepath.Join(root, "local")}
	old, moved := filepath.Join(was.State, JournalName), filepath.Join(now.State, JournalName)
	if err := os.MkdirAll(was.State, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte("earlier\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	held := unlink
	t.Cleanup(func() { unlink = held })
	unlink = func(string) error { return &os.PathError{Op: "remove", Path: old, Err: syscall.EACCES} }
	for range 2 { // linked now, then found linked by the next run
		m := moveEarlier(was, now)
		var linked *LinkedError
		if len(m) != 1 || !errors.As(m[0].Err, &linked) || len(LeftBeside(m)) != 0 {
			t.Fatalf("a journal linked, its earlier name held: %+v, want it linked, not said unseen", m)
		}
		if why := m[0].Why(); why != "remove: permission denied" {
			t.Errorf("why: %q", why)
		}
		a, errA := os.Lstat(old)
		b, errB := os.Lstat(moved)
		if errA != nil || errB != nil || !os.SameFile(a, b) {
			t.Fatalf("not one file at both names: %v, %v", errA, errB)
		}
	}
	unlink = held
	if m := moveEarlier(was, now); len(m) != 1 || m[0].Err != nil {
		t.Errorf("the next run gives %+v, want the earlier name removed", m)
	}
	if fi, err := os.Lstat(old); err != nil || !fi.IsDir() {
		t.Errorf("the earlier place is not fenced once its name went: %v", err)
	}
}
