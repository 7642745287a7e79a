package osguard

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestMoveWithoutNoReplaceNeverReplaces: on a filesystem with neither
// links nor a rename that refuses an existing name (RENAME_NOREPLACE
// refused with EINVAL: some FUSE mounts), a journal made at the new place
// after moveEntry looked (another svcwallet's first line) is not renamed
// over: os.Rename alone replaced it, its lines lost.
func TestMoveWithoutNoReplaceNeverReplaces(t *testing.T) {
	root := t.TempDir()
	wasLink, wasRename := link, renameat2
	t.Cleanup(func() { link, renameat2 = wasLink, wasRename })
	link = func(string, string) error { return &os.LinkError{Op: "link", Err: syscall.EPERM} }
	renameat2 = func(int, string, int, string, uint) error { return unix.EINVAL }
	requireNotRenamedOver(t, root, " without RENAME_NOREPLACE")
	from, to := filepath.Join(root, "earlier.jsonl"), filepath.Join(root, "free.jsonl")
	if err := rename(from, to); err != nil {
		t.Fatalf("a file not moved where nothing is: %v", err)
	}
	if b, err := os.ReadFile(to); err != nil || string(b) != "earlier\n" {
		t.Fatalf("the file moved holds %q, %v", b, err)
	}
}
