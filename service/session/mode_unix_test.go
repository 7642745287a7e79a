//go:build unix

package session

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestSessionFileOpenToOthersNotUsed: a session kept in the file (its
// cookie) whose file is open to group or others (a chmod, a backup put
// back) is not used, saying so with the chmod that closes it, as a
// password file is refused: another user may have read the cookie. The
// file of a session kept in the credential store holds no secret, and is
// still read.
func TestSessionFileOpenToOthersNotUsed(t *testing.T) {
	s := newStore(t)
	if _, err := s.Save(testnet(), kept(), "", true); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604} {
		if err := os.Chmod(s.File, mode); err != nil {
			t.Fatal(err)
		}
		var unreadable *UnreadableError
		l, err := s.Load(testnet())
		if !errors.As(err, &unreadable) || !strings.Contains(err.Error(), "chmod 600") || l.Cookie != "" {
			t.Errorf("mode %04o: %v (cookie %q)", mode, err, l.Cookie)
		}
	}
	if err := os.Chmod(s.File, 0o600); err != nil {
		t.Fatal(err)
	}
	if l, err := s.Load(testnet()); err != nil || l.Cookie == "" {
		t.Fatalf("0600: %v", err)
	}

	s = newStore(t)
	if _, err := s.Save(testnet(), kept(), "live-api-key-1", false); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.File, 0o644); err != nil {
		t.Fatal(err)
	}
	if l, err := s.Load(testnet()); err != nil || l.Cookie == "" {
		t.Fatalf("a session in the credential store, its file 0644: %v", err)
	}
}
