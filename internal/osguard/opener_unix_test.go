//go:build unix

package osguard_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// opener writes a stand-in for xdg-open running body, its link in $1.
func opener(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "xdg-open")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenLinkIsBounded: an opener that never ends (a browser run in its
// foreground, a broken desktop) holds the caller no longer than the wait,
// is said still running (not known to have opened anything), and is left
// running, not ended: it would close the browser it opened.
func TestOpenLinkIsBounded(t *testing.T) {
	// Two named pipes, held open for reading and writing here, so neither
	// side's open waits for the other: the opener says its pid on one, then
	// answers on it once the other speaks, after OpenLink returned; one
	// ended by then never answers. Nothing hangs on how late it starts.
	dir := t.TempDir()
	pipe := func(name string) *os.File {
		path := filepath.Join(dir, name)
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		if err := f.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
			t.Fatal(err)
		}
		return f
	}
	says, asks := pipe("says"), pipe("asks")
	name := opener(t, "echo $$ > '"+says.Name()+"'; read x < '"+asks.Name()+"'; echo here > '"+says.Name()+"'; exec sleep 60")
	done := make(chan error, 1)
	go func() { done <- osguard.OpenLink(200*time.Millisecond, name, "https://example.com/tx/0x1") }()
	select {
	case err := <-done:
		var running *osguard.OpenerRunning
		if !errors.As(err, &running) || running.Name != name {
			t.Fatalf("an opener still running at the wait gives %v, want it said still running", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("still waiting for an opener that never ends")
	}
	b := make([]byte, 32)
	n, err := says.Read(b)
	if err != nil {
		t.Fatalf("the opener never said its pid: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	t.Cleanup(func() { kill(pid) })
	if _, err := asks.WriteString("still there?\n"); err != nil {
		t.Fatal(err)
	}
	if n, err := says.Read(b); err != nil || strings.TrimSpace(string(b[:n])) != "here" {
		t.Errorf("the opener was ended (%v): the browser it runs would close with it", err)
	}
}

// TestOpenLinkSaysAFailureCleaned: an opener that fails is an error naming
// it and its output on one line, its escape sequences not passed, never raw; one that ends
// well is no error.
func TestOpenLinkSaysAFailureCleaned(t *testing.T) {
	name := opener(t, `printf 'xdg-open: no method available for opening \033[2J%s\nsecond line\n' "$1" >&2; exit 3`)
	err := osguard.OpenLink(10*time.Second, name, "https://example.com/tx/0x1")
	if err == nil || !strings.Contains(err.Error(), "exit status 3): xdg-open: no method available for opening ") || !strings.Contains(err.Error(), "https://example.com/tx/0x1 second line") || strings.ContainsAny(err.Error(), "\x1b\n") {
		t.Fatalf("error %q, want the opener's failure on one line, no escape sequence", err)
	}
	if err := osguard.OpenLink(10*time.Second, opener(t, "exit 0"), "https://example.com"); err != nil {
		t.Fatalf("an opener that ended well: %v", err)
	}
	if err := osguard.OpenLink(10*time.Second, filepath.Join(t.TempDir(), "none"), "https://example.com"); err == nil || !strings.Contains(err.Error(), "could not start") {
		t.Fatalf("a missing opener: %v", err)
	}
}

// TestOpener: open on macOS, xdg-open in a graphical session, else none.
func TestOpener(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for _, c := range []struct {
		goos string
		vars map[string]string
		want string
	}{
		{"darwin", nil, "open"},
		{"linux", map[string]string{"DISPLAY": ":0"}, "xdg-open"},
		{"freebsd", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, "xdg-open"},
		{"linux", nil, ""},
		{"windows", map[string]string{"DISPLAY": ":0"}, ""},
	} {
		if got := osguard.Opener(c.goos, env(c.vars)); got != c.want {
			t.Errorf("Opener(%s, %v) = %q, want %q", c.goos, c.vars, got, c.want)
		}
	}
}
