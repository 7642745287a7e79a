package osguard

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// requireNotRenamedOver: rename of a file in root onto another file there
// fails, and both hold what they held.
func requireNotRenamedOver(t *testing.T, root, where string) {
	t.Helper()
	// Their names are the test's to use after.
	from, to := filepath.Join(root, "earlier.jsonl"), filepath.Join(root, "in-use.jsonl")
	for p, s := range map[string]string{from: "earlier\n", to: "in use\n"} {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := rename(from, to); err == nil {
		t.Error("a file was moved over another" + where)
	}
	for p, want := range map[string]string{from: "earlier\n", to: "in use\n"} {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s holds %q, %v; want %q", p, b, err, want)
		}
	}
}

// TestMoveNeverReplaces: an earlier version's file is moved only where
// nothing is: a journal another svcwallet made at the new place in the
// instant after it was looked at (its first withdrawal) is never replaced
// by the earlier one, its lines lost and its writer left appending to a
// file no one reads. A move cut short between its two steps (the file at
// both places) is finished by the next run, not said as a journal beside.
func TestMoveNeverReplaces(t *testing.T) {
	root := t.TempDir()
	requireNotRenamedOver(t, root, "")

	was := Dirs{State: filepath.Join(root, "old-state")}
	now := Dirs{State: filepath.Join(root, "local")}
	for _, d := range []string{was.State, now.State} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	old, moved := filepath.Join(was.State, JournalName), filepath.Join(now.State, JournalName)
	if err := os.WriteFile(old, []byte("earlier\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(old, moved); err != nil {
		t.Skip("no hard links here:", err)
	}
	if m := moveEarlier(was, now); len(m) != 1 || m[0].Err != nil || len(LeftBeside(m)) != 0 {
		t.Errorf("a move cut short gives %+v, want it finished", m)
	}
	if fi, err := os.Lstat(old); err != nil || !fi.IsDir() {
		t.Errorf("a move cut short, finished, leaves its earlier place unfenced: %v", err)
	}
	if b, err := os.ReadFile(moved); err != nil || string(b) != "earlier\n" {
		t.Errorf("the journal moved holds %q, %v", b, err)
	}
}

// TestMoveWithoutLinksNeverReplaces: where the filesystem has no hard links
// (FAT, some network mounts: the link fails other than "exists"), a file
// is renamed by a rename that fails over anything at the new place, never
// os.Rename, which replaced the journal made there since it was looked at;
// a folder too, even over an empty one. Where nothing is, it moves.
func TestMoveWithoutLinksNeverReplaces(t *testing.T) {
	root := t.TempDir()
	was := link
	t.Cleanup(func() { link = was })
	link = func(string, string) error { return &os.LinkError{Op: "link", Err: syscall.EPERM} }
	requireNotRenamedOver(t, root, " where links are not had")
	dir, empty := filepath.Join(root, "keystore"), filepath.Join(root, "empty")
	for _, d := range []string{dir, empty} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := rename(dir, empty); err == nil {
		t.Error("a folder was moved over an empty one")
	}
	if err := rename(filepath.Join(root, "earlier.jsonl"), filepath.Join(root, "free.jsonl")); err != nil {
		t.Errorf("a file not moved where nothing is: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "free.jsonl")); err != nil || string(b) != "earlier\n" {
		t.Errorf("the file moved holds %q, %v", b, err)
	}
}
