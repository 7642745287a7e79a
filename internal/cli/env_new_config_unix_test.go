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

// TestDefaultConfigMadeChecked: the default config (no --config) an edit
// makes is made as a named one is (configToEdit): 0600 in a folder made
// 0700; a link planted at its name, dangling, is refused and said, never
// followed; one planted after the check is never written through.
func TestDefaultConfigMadeChecked(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "cfg"))
	path := filepath.Join(home, "cfg", "svcwallet", "config.toml")
	run := func(args ...string) depositResult { return runCLI("", nil, args...) }
	if r := run("env", "use", "sandbox"); r.code != 0 {
		t.Fatalf("env use sandbox: exit %d\n%s", r.code, r.stderr)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700 | os.ModeDir} {
		if fi, err := os.Lstat(p); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v, want %v", p, fi.Mode(), want)
		}
	}

	elsewhere := filepath.Join(t.TempDir(), "config.toml")
	if err := os.Remove(path); err != nil || os.Symlink(elsewhere, path) != nil {
		t.Fatal("plant", err)
	}
	for _, args := range [][]string{{"env", "use", "sandbox"}, {"env", "add", "local", "--base-url", "http://127.0.0.1:1", "--chain-id", "327"}} {
		r := run(args...)
		if r.code == 0 || !strings.Contains(r.stderr, "a link is at "+path+": not followed") {
			t.Errorf("%v through a dangling link at the default config: exit %d\n%s", args, r.code, r.stderr)
		}
		if _, err := os.Lstat(elsewhere); err == nil {
			t.Fatalf("%v made the link's target", args)
		}
	}

	target := filepath.Join(t.TempDir(), "private")
	if err := os.WriteFile(target, nil, 0o600); err != nil || os.Remove(path) != nil {
		t.Fatal(err)
	}
	newConfigChecked = func(p string) {
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { newConfigChecked = func(string) {} })
	r := run("env", "use", "sandbox")
	if b, err := os.ReadFile(target); err != nil || len(b) != 0 || r.code == 0 || !strings.Contains(r.stderr, "is a symbolic link") {
		t.Fatalf("env use through a link planted after the check: exit %d, target %q\n%s%s", r.code, b, r.stdout, r.stderr)
	}
}

// TestNoDefaultConfigToEdit: with no config named and no home nor
// XDG_CONFIG_HOME, an edit says what to set or name; it checked the name
// "" as a file of the working folder and said "config : open : …".
func TestNoDefaultConfigToEdit(t *testing.T) {
	t.Setenv("HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Chdir(t.TempDir())
	for _, args := range [][]string{{"env", "use", "sandbox"}, {"env", "add", "local", "--base-url", "http://127.0.0.1:1", "--chain-id", "327"}} {
		if r := runCLI("", nil, args...); r.code == 0 || !strings.Contains(r.stderr, "no config file to edit: no home directory: set $HOME, or set XDG_CONFIG_HOME; or name one with --config") {
			t.Errorf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("made %v in the working folder", entries)
	}
}

// TestEnvEditThroughALinkSaysSo: a config that is a link to a file (a
// dotfiles manager's) is edited where the link points, the link kept, and
// env use, add and remove say so, naming both.
func TestEnvEditThroughALinkSaysSo(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	dir := t.TempDir()
	target, link := filepath.Join(dir, "dotfiles.toml"), filepath.Join(dir, "config.toml")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	w.config = link
	real, err := filepath.EvalSymlinks(target) // macOS's temporary folder is under a link
	if err != nil {
		t.Fatal(err)
	}
	said := link + ", a link: written to " + real
	for _, args := range [][]string{{"env", "add", "local", "--base-url", srv.URL, "--chain-id", "327"}, {"env", "use", "local"},
		{"env", "use", "sandbox"}, {"env", "remove", "local"}} {
		if r := w.run("", nil, args...); r.code != 0 || !strings.Contains(r.stdout, said) {
			t.Errorf("%s: exit %d, does not say %q:\n%s%s", strings.Join(args, " "), r.code, said, r.stdout, r.stderr)
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `default_env = "sandbox"`) {
		t.Errorf("the file the link names was not edited:\n%s", b)
	}
}
