package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestEnvAddMakesTheConfigNamed: env add --config PATH of a file that does
// not exist makes it, owner-only, and says it is new; it makes nothing
// through a link at the name, nor in a folder that is missing (a mistyped
// one), and says each; other commands still refuse a config that is not
// there.
func TestEnvAddMakesTheConfigNamed(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	add := func(config string) depositResult {
		w.config = config
		return w.run("", nil, "env", "add", "local", "--base-url", srv.URL, "--chain-id", "327")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "new.toml")
	w.config = path
	if r := w.run("", nil, "history"); r.code == 0 || !strings.Contains(r.stderr, "does not exist: create it") {
		t.Fatalf("history on a config not there: exit 0\n%s", r.stdout)
	}
	if r := add(path); r.code != 0 || !strings.HasPrefix(r.stdout, "Created "+path+" with environment local: ") {
		t.Fatalf("env add of a new config: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	fi, err := os.Stat(path)
	if err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("the config made: %v %v", fi, err)
	}
	if r := w.run("", nil, "env", "list"); r.code != 0 || !strings.Contains(r.stdout, "local") {
		t.Errorf("the config made is not read: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := w.run("", nil, "env", "add", "again", "--base-url", srv.URL, "--chain-id", "327", "--alias"); !strings.HasPrefix(r.stdout, "Added environment again to ") {
		t.Errorf("a second env add says it is new:\n%s", r.stdout)
	}

	missing := filepath.Join(dir, "typo", "c.toml")
	if r := add(missing); r.code == 0 || !strings.Contains(r.stderr, "there is no folder "+filepath.Dir(missing)+" for config c.toml: make it first") {
		t.Errorf("a config in a missing folder: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Dir(missing)); err == nil {
		t.Error("the missing folder was made")
	}

	if runtime.GOOS == "windows" {
		return // links need privileges there
	}
	target, link := filepath.Join(dir, "elsewhere.toml"), filepath.Join(dir, "link.toml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if r := add(link); r.code == 0 || !strings.Contains(r.stderr, "a link is at "+safetext.Shown(link)+": not followed; remove it or name another file") {
		t.Errorf("a link at the config's name: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("written through the link")
	}
}

// TestEnvAddSaysTheNewConfigMustBeNamed: a config env add made where
// --config said is read by later commands only when named again: said once,
// with the default config they read otherwise; a second env add does not
// say it.
func TestEnvAddSaysTheNewConfigMustBeNamed(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	const said = "Commands read it only when it is named, by --config as above or by $SVCWALLET_CONFIG; without either they read "
	w.config = filepath.Join(t.TempDir(), "work.toml")
	r := w.run("", nil, "env", "add", "local", "--base-url", srv.URL, "--chain-id", "327")
	if r.code != 0 || !strings.Contains(r.stdout, said+safetext.Shown(config.DefaultConfigPath())+".\n") {
		t.Errorf("env add of a new config: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = w.run("", nil, "env", "add", "again", "--base-url", srv.URL, "--chain-id", "327", "--alias")
	if r.code != 0 || strings.Contains(r.stdout, said) {
		t.Errorf("a second env add: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
