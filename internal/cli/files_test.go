//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/follow"
)

// TestDoctorReportsOthersFiles: a config another user owns, one in a
// directory another user owns, and one below a group-writable directory are
// each a warning naming the path and the fix, not "ok".
func TestDoctorReportsOthersFiles(t *testing.T) {
	for _, tc := range []struct {
		name, change string // change: "file", "dir" or "above"
		chown        bool
		words, fix   string
	}{
		{"config owned by another user", "file", true, "belongs to another user (uid 65534)", `sudo chown "$USER" `},
		{"its directory owned by another user", "dir", true, "belongs to another user (uid 65534)", `sudo chown "$USER" `},
		{"a group-writable directory above", "above", false, "is writable by group or others (mode 0770)", "chmod go-w "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.chown && os.Geteuid() != 0 {
				t.Skip("giving a file to another user needs root")
			}
			cfg, _ := localConfig(t)
			above := filepath.Join(t.TempDir(), "above")
			dir := filepath.Join(above, "svcwallet")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "config.toml")
			if err := os.Rename(cfg, path); err != nil {
				t.Fatal(err)
			}
			changed := map[string]string{"file": path, "dir": dir, "above": above}[tc.change]
			var err error
			if tc.chown {
				err = os.Chown(changed, 65534, 65534)
			} else {
				err = os.Chmod(changed, 0o770)
			}
			if err != nil {
				t.Fatal(err)
			}
			code, rep, out := doctor(t, nil, noTmux, "--config", path)
			w := rep.warning("config")
			if code != 1 || w == nil || !strings.Contains(w.Detail, changed+" ") || !strings.Contains(w.Detail, tc.words) || !strings.Contains(w.Fix, tc.fix+changed) {
				t.Fatalf("exit %d, want a config warning naming %s with %q and the fix %q:\n%s", code, changed, tc.words, tc.fix+changed, out)
			}
		})
	}
}

// TestDoctorReportsLinks: a journal or a state file that is a symbolic link
// is a warning naming it, not "ok" (svcwallet would refuse to use it).
func TestDoctorReportsLinks(t *testing.T) {
	cfg, _ := localConfig(t)
	for _, tc := range []struct{ name, file, check string }{
		{"journal", "journal.jsonl", "journal"},
		{"bridge pins", "bridge_pins.json", "state files"},
		{"watch board", follow.WatchlistFile, "state files"},
		{"debug log", debugLogFile, "state files"},
		{"journal index", "journal.jsonl.index", "state files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			link := filepath.Join(state, "svcwallet", tc.file)
			if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(t.TempDir(), "target"), link); err != nil {
				t.Fatal(err)
			}
			code, rep, out := doctorState(t, state, nil, noTmux, "--config", cfg)
			w := rep.warning(tc.check)
			if code != 1 || w == nil || !strings.Contains(w.Detail, link+" is a symbolic link") || !strings.Contains(w.Fix, "remove the link") {
				t.Fatalf("exit %d, want a %s warning for the link %s:\n%s", code, tc.check, link, out)
			}
		})
	}
}

// TestConsoleDebugLogRefusesLink: the console's debug log is not opened
// through a symbolic link, and the link's target is not written.
func TestConsoleDebugLogRefusesLink(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	link := filepath.Join(state, "svcwallet", debugLogFile)
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(target, []byte("kept\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, _, closeLog, err := consoleDebugLog()
	if err == nil {
		closeLog()
	}
	if err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
		t.Fatalf("debug log through a link: %v", err)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "kept\n" {
		t.Fatalf("the link's target now holds %q (%v)", b, err)
	}
}

// TestDoctorReportsOthersKeystore: a keystore directory below a directory
// group or others can write is a keystore warning with the fix.
func TestDoctorReportsOthersKeystore(t *testing.T) {
	cfg, _ := localConfig(t)
	above := t.TempDir()
	dir := filepath.Join(above, "keystore")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(above, 0o777); err != nil {
		t.Fatal(err)
	}
	code, rep, out := doctor(t, map[string]string{"SVCWALLET_KEYSTORE": dir}, noTmux, "--config", cfg)
	w := rep.warning("keystore")
	if code != 1 || w == nil || !strings.Contains(w.Detail, "directory "+above+" ") || w.Fix != "make it yours alone: chmod go-w "+above {
		t.Fatalf("exit %d, want a keystore warning naming %s:\n%s", code, above, out)
	}
}
