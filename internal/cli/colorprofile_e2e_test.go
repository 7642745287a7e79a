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

// fakeTmux puts on PATH a tmux that records each run's arguments (log) and
// environment (envLog), and answers info with RGB set, after 6 KiB of
// other capabilities.
func fakeTmux(t *testing.T, dir string) (path, log, envLog string) {
	t.Helper()
	fake := filepath.Join(dir, "fakebin")
	log, envLog = filepath.Join(dir, "tmux.log"), filepath.Join(dir, "tmux.env")
	if err := os.MkdirAll(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	// RGB past the first 4 KiB, as a real tmux info says it.
	script := "#!/bin/sh\necho \"$*\" >>" + log + "\nenv >>" + envLog +
		"\ni=0\nwhile [ $i -lt 200 ]; do echo \"  $i: kf$i: (string) \\\\033[19;3~\"; i=$((i+1)); done\necho '  257: RGB: (flag) true'\n"
	if err := os.WriteFile(filepath.Join(fake, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return "PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH"), log, envLog
}

// inTmuxWithSecrets is a clean environment inside tmux, the secrets set.
func inTmuxWithSecrets(dir, path string) []string {
	env := silentEnv(dir, "TMUX=/tmp/tmux-0/default,1,0", "SVCWALLET_PRIVATE_KEY=ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80", "SVCWALLET_API_KEY=test-api-key")
	env[0] = path
	return env
}

// TestNoTmuxBeforeMain: lipgloss runs `tmux info` as it initialises when
// TMUX is set and standard output is a terminal, with every variable and
// no time limit; internal/startenv hides TMUX until main, so `version`
// inside tmux starts no tmux at all, its init coming before lipgloss's.
func TestNoTmuxBeforeMain(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	path, log, _ := fakeTmux(t, dir)
	s := startSilent(t, bin, append(inTmuxWithSecrets(dir, path), "GODEBUG=inittrace=1"), "version")
	if code := s.wait(10 * time.Second); code != 0 {
		t.Fatalf("version: exit %d: %q", code, s.output())
	}
	if got, err := os.ReadFile(log); err == nil {
		t.Errorf("version ran tmux: %q", got)
	}
	trace := s.output()
	ours := strings.Index(trace, "init github.com/svcwallet/svcwallet/internal/startenv ")
	theirs := strings.Index(trace, "init github.com/charmbracelet/colorprofile ")
	if ours < 0 || theirs < 0 || ours > theirs {
		t.Errorf("startenv's init (at %d) is not before colorprofile's (at %d) in the init trace", ours, theirs)
	}
}

// TestConsoleAsksTmuxOnce: inside tmux the console asks tmux once, after
// its first frame, with no SVCWALLET_* variable in tmux's environment, and
// draws again in true colour when tmux says it shows it.
func TestConsoleAsksTmuxOnce(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	path, log, envLog := fakeTmux(t, dir)
	s := startSilent(t, bin, inTmuxWithSecrets(dir, path))
	s.waitShows("Sandbox", 10*time.Second)
	s.waitWrites("a colour in true colour", func(out string) bool { return strings.Contains(out, "38;2;") }, 10*time.Second)
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	s.wait(10 * time.Second)
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("tmux was never asked (the test's fake tmux is not on the PATH?): %v", err)
	}
	if runs := strings.Count(string(got), "info\n"); runs != 1 {
		t.Errorf("tmux info ran %d times before the console quit, want once:\n%s", runs, got)
	}
	env, _ := os.ReadFile(envLog)
	for line := range strings.Lines(string(env)) {
		if strings.HasPrefix(line, "SVCWALLET_") {
			name, _, _ := strings.Cut(line, "=")
			t.Errorf("tmux was started with %s", name)
		}
	}
	if !strings.Contains(string(env), "TMUX=/tmp/tmux-0/default,1,0") {
		t.Error("tmux was asked without TMUX, which svcwallet's own code is given back")
	}
}
