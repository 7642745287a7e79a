//go:build unix

package config_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestLoadConfigFIFO (issue 25 item 9): --config naming a named pipe is
// refused at once, naming it and what it is, not read (which would wait
// for ever for a writer).
func TestLoadConfigFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := config.LoadConfig(path, true); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), path+" is a named pipe (FIFO), not a regular file") {
			t.Fatalf("a config that is a named pipe: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("LoadConfig of a named pipe still blocked after 10 s")
	}
}
