//go:build unix

package osguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteStateFileRefusesLinks: a state file written without being read
// first (every caller reads today) is still not replaced when it is a
// symbolic link, so a link planted there is not silently swapped.
func TestWriteStateFileRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "state.json")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if err := WriteStateFile(path, []byte("new")); err == nil || !strings.Contains(err.Error(), path+" is a symbolic link") {
		t.Fatalf("WriteStateFile through a link: %v", err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
}
