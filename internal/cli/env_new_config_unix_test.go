//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestEnvAddWritesNoLinkPlantedAfterItsCheck: a link planted at a new
// config's name after env add checked it (as another user could in /tmp),
// naming a private file of the user's, is never written through: the file
// is made at once without following links, and the target stays as it was.
func TestEnvAddWritesNoLinkPlantedAfterItsCheck(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	dir := t.TempDir()
	target := filepath.Join(dir, "private")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	w.config = filepath.Join(dir, "new.toml")
	newConfigChecked = func(path string) {
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { newConfigChecked = func(string) {} })
	r := w.run("", nil, "env", "add", "local", "--base-url", srv.URL, "--chain-id", "327")
	if b, err := os.ReadFile(target); err != nil || len(b) != 0 {
		t.Fatalf("written through a link planted after the check (exit %d):\n%s%s", r.code, b, r.stderr)
	}
	if r.code == 0 {
		t.Errorf("env add through a planted link: exit 0\n%s", r.stdout)
	}
}

// TestEnvAddRefusedLeavesNoConfig: a new config env add made is removed
// when the add is then refused, so no empty file is left to be read later.
func TestEnvAddRefusedLeavesNoConfig(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	w.config = filepath.Join(t.TempDir(), "new.toml")
	r := w.run("", nil, "env", "add", "sandbox", "--base-url", srv.URL, "--chain-id", "327")
	if r.code == 0 || !strings.Contains(r.stderr, "sandbox") {
		t.Fatalf("env add sandbox: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Lstat(w.config); err == nil {
		t.Error("a refused env add left the config it made")
	}
}
