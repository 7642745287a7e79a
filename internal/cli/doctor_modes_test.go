//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// TestDoctorFileModesByGOOS: a keystore directory and a journal others may
// read are warnings with the chmod that fixes them where permission bits
// mean something; on Windows, where Go makes them up (every file 0666),
// doctor warns of neither mode and reads the access lists instead: the
// keystore, the state folder, the journal and the session store, each
// one that lets in others a warning with its fix.
func TestDoctorFileModesByGOOS(t *testing.T) {
	cfg, _ := localConfig(t)
	state := t.TempDir()
	path := filepath.Join(state, "svcwallet", "journal.jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(t.TempDir(), "keystore")
	if err := os.Mkdir(keys, 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"SVCWALLET_KEYSTORE": keys}
	sessions := filepath.Join(state, "svcwallet", "sessions.json")
	var read []string
	openTo := map[string]bool{}
	ownerOnly := func(p string) error {
		read = append(read, p)
		if openTo[p] {
			return &osguard.UnsafePathError{What: p + " may be opened by others than you: Users (S-1-5-32-545)", Fix: "icacls fix"}
		}
		return nil
	}
	run := func(goos string) (int, doctorReport, string) {
		return doctorOn(t, doctorCmd{tmuxOption: noTmux, goos: goos, protect: func() error { return nil }, ownerOnly: ownerOnly, privateFiles: []string{sessions}}, state, vars, "--config", cfg)
	}

	code, rep, out := run("linux")
	if w := rep.warning("keystore"); code != 1 || w == nil || !strings.Contains(w.Detail, keys+" is open to other users") || w.Fix != "chmod 700 "+keys {
		t.Errorf("linux: exit %d, want a keystore warning with chmod 700:\n%s", code, out)
	}
	if w := rep.warning("journal"); w == nil || !strings.Contains(w.Detail, path+" is open to other users") || w.Fix != "chmod 600 "+path {
		t.Errorf("linux: want a journal warning with chmod 600:\n%s", out)
	}
	if rep.check("files") != nil {
		t.Errorf("linux: a files line, where permissions are checked:\n%s", out)
	}

	if len(read) != 0 {
		t.Errorf("linux: access lists read: %q", read)
	}

	code, rep, out = run("windows")
	if code != 0 || strings.Contains(out, "open to other users") || strings.Contains(out, "chmod") {
		t.Errorf("windows: exit %d, want no permission warning and no chmod:\n%s", code, out)
	}
	if f := rep.check("files"); f == nil || f.Status != "ok" || !strings.Contains(f.Detail, "let in you alone") {
		t.Errorf("windows: want doctor to say the access lists let in the user alone:\n%s", out)
	}
	for _, p := range []string{keys, filepath.Dir(path), path, sessions} {
		if !slices.Contains(read, p) {
			t.Errorf("windows: the access list of %s is not read (read %q)", p, read)
		}
	}
	openTo[path] = true
	code, rep, out = run("windows")
	if w := rep.warning("files"); code != 1 || w == nil || !strings.Contains(w.Detail, path+" may be opened by others") || w.Fix != "icacls fix" {
		t.Errorf("windows: a journal open to Users: exit %d, want a files warning with the fix:\n%s", code, out)
	}
}
