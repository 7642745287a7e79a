//go:build e2e && unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Inside tmux, finding the colour profile runs `tmux info`: lipgloss does it
// once at start-up, and the console's first frame does not wait for it a
// second time (it passes that profile to Bubble Tea).
func TestConsoleAsksTmuxOnce(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	fake := filepath.Join(dir, "fakebin")
	log := filepath.Join(dir, "tmux.log")
	if err := os.MkdirAll(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"$*\" >>" + log + "\n"
	if err := os.WriteFile(filepath.Join(fake, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := silentEnv(dir, "TMUX=/tmp/tmux-0/default,1,0")
	env[0] = "PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH")
	s := startSilent(t, bin, env)
	s.waitShows("Sandbox demo", 10*time.Second)
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	s.wait(10 * time.Second)
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("tmux was never asked (the test's fake tmux is not on the PATH?): %v", err)
	}
	if runs := strings.Count(string(got), "info\n"); runs != 1 {
		t.Errorf("tmux info ran %d times before the console quit, want once:\n%s", runs, got)
	}
}
