//go:build unix

package signer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// wantUnsafe checks that err refuses path, saying words, with fix.
func wantUnsafe(t *testing.T, err error, path, words, fix string) {
	t.Helper()
	var u *osguard.UnsafePathError
	if !errors.As(err, &u) || !strings.Contains(u.What, path+" ") || !strings.Contains(u.What, words) || !strings.Contains(u.Fix, fix) {
		t.Fatalf("got %v, want an UnsafePathError saying %q of %s with the fix %q", err, words, path, fix)
	}
}

// TestKeystoreFIFO: --keystore-file naming a pipe is refused at once.
func TestKeystoreFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	err := promptly(t, path, func() error { _, err := LoadKeystoreKey(path, testPassphrase); return err })
	wantUnsafe(t, err, path, "is a named pipe (FIFO), not a regular file", "a regular file")
}

// TestKeystoreRefusesOthersFiles: a keystore file another user owns is not
// decrypted (they could have swapped in a key they hold), no key is written
// into a keystore directory others can write, and no raw key file in it is read.
func TestKeystoreRefusesOthersFiles(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	b := filepath.Join(home, "a", "b")
	if err := os.MkdirAll(b, 0o700); err != nil {
		t.Fatal(err)
	}
	_, path, err := NewKeystoreKey(b, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(path, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		_, err := LoadKeystoreKey(path, testPassphrase)
		wantUnsafe(t, err, path, "belongs to another user", "chown")
	}
	if err := os.Chmod(b, 0o770); err != nil {
		t.Fatal(err)
	}
	_, _, err = NewKeystoreKey(b, testPassphrase)
	wantUnsafe(t, err, b, "writable by group or others", "chmod go-w "+b)
}
