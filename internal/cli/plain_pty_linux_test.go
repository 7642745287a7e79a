//go:build e2e

package cli

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// echoOn reports whether the pseudo-terminal echoes what is typed.
func echoOn(t *testing.T, s *ptyTyping) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(s.ptmx.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0
}

// TestPlainSecretUnechoed: plain mode reads the API key with echo off, and
// ctrl+c while it reads puts the terminal back as it was (echo on), so the
// shell is not left blind.
func TestPlainSecretUnechoed(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	s := &ptyTyping{silentTerminal: startSilent(t, bin, silentEnv(dir), "--plain"), t: t}
	s.answer("How do you log in?", "1", 15*time.Second)
	s.waitFor("API key (not shown as you type): ", 15*time.Second)
	// The prompt is written just before echo goes off: wait for that state.
	end := time.Now().Add(15 * time.Second)
	for echoOn(t, s) {
		if time.Now().After(end) {
			t.Fatal("echo still on at the API key's prompt")
		}
		time.Sleep(10 * time.Millisecond) // polling interval, not ordering
	}
	if _, err := s.ptmx.Write([]byte{3}); err != nil { // ctrl+c
		t.Fatal(err)
	}
	if code := s.wait(15 * time.Second); code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
	if !echoOn(t, s) {
		t.Error("echo left off after ctrl+c at the API key's prompt")
	}
}
