//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorFileModesByGOOS: a keystore directory and a journal others may
// read are warnings with the chmod that fixes them where permission bits
// mean something; on Windows, where Go makes them up (every file 0666),
// doctor warns of neither and says plainly that file permissions are not
// checked there.
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
	run := func(goos string) (int, doctorReport, string) {
		return doctorOn(t, doctorCmd{tmuxOption: noTmux, goos: goos, protect: func() error { return nil }}, state, vars, "--config", cfg)
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

	code, rep, out = run("windows")
	if code != 0 || strings.Contains(out, "open to other users") || strings.Contains(out, "chmod") {
		t.Errorf("windows: exit %d, want no permission warning and no chmod:\n%s", code, out)
	}
	if f := rep.check("files"); f == nil || f.Status != "ok" || !strings.HasPrefix(f.Detail, "file permissions are not checked on Windows") {
		t.Errorf("windows: want doctor to say file permissions are not checked:\n%s", out)
	}
}
