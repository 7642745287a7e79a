//go:build unix

package osguard_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// TestQuickOutputIsBounded: a child asked one quick question (tmux's
// options, for doctor and for a copy's word) that never answers is ended
// with what it started, and said; doctor waited for it for ever. What it
// prints is kept to its start.
func TestQuickOutputIsBounded(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				kill(pid)
			}
		}
	})
	done := make(chan error, 1)
	go func() {
		_, err := osguard.QuickOutput(200*time.Millisecond, osguard.MaxQuickOutput, "sh", "-c", "sleep 60 & echo $! > '"+pidFile+"'; wait")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "sh did not answer within 200ms") {
			t.Fatalf("error %v, want the child said not to answer", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("still waiting for a child that never answers")
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for end := time.Now().Add(10 * time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("what the child started outlived it")
		}
	}

	out, err := osguard.QuickOutput(10*time.Second, osguard.MaxQuickOutput, "sh", "-c", "head -c 50000000 /dev/zero")
	if err != nil || len(out) != osguard.MaxQuickOutput {
		t.Fatalf("kept %d bytes (%v), want %d", len(out), err, osguard.MaxQuickOutput)
	}
}

// TestQuickOutputKeepsWhatItIsTold: a long answer (tmux info, whose Tc
// comes past 4 KiB) is kept to the length asked, not to MaxQuickOutput.
func TestQuickOutputKeepsWhatItIsTold(t *testing.T) {
	out, err := osguard.QuickOutput(10*time.Second, 9000, "sh", "-c", "head -c 50000 /dev/zero")
	if err != nil || len(out) != 9000 {
		t.Fatalf("kept %d bytes (%v), want 9000", len(out), err)
	}
}
