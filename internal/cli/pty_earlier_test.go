//go:build e2e && unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestEarlierJournalOnTheConsolesFirstFrame: the built console, run where
// an earlier svcwallet's journal is left beside the one in use (an earlier
// state folder named by a relative $XDG_STATE_HOME, which this version no
// longer honours), draws the notice before its login: runConsole hands the
// journals it was told of to the screens (kit.Deps.EarlierJournals).
func TestEarlierJournalOnTheConsolesFirstFrame(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	home := filepath.Join(dir, "home")
	inUse := filepath.Join(home, ".local", "state", "svcwallet")
	run := filepath.Join(dir, "run")
	earlier := filepath.Join(run, "old", "svcwallet")
	for _, d := range []string{inUse, earlier} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(inUse, "journal.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(earlier, "journal.jsonl"), []byte(`{"kind":"intent","quote_id":"q-1"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startSilent(t, "/bin/sh", silentEnv(dir, "XDG_STATE_HOME=old"), "-c", `cd "$1" && exec "$2"`, "sh", run, bin)
	s.waitShows("earlier svcwallet wrote", 10*time.Second)
	if out := ansi.Strip(s.output()); strings.Contains(out, "Sandbox demo") {
		t.Errorf("the login is drawn before the notice is hidden: %q", out)
	}
	if _, err := s.ptmx.Write([]byte{3}); err != nil { // ctrl+c
		t.Fatal(err)
	}
	if code := s.wait(10 * time.Second); code != 0 {
		t.Errorf("exit %d after ctrl+c", code)
	}
}
