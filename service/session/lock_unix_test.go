//go:build unix

package session

import (
	"errors"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestStoreHoldsTheFileLock: Save and Refused read the session file and
// write it back holding sessions.json.lock, so two processes at once (two
// logins to two environments; a console recording a refusal while auth
// login keeps a new session) never write back what each read before the
// other's write: one's session would be lost, or the new one taken for
// the refused.
func TestStoreHoldsTheFileLock(t *testing.T) {
	for _, c := range []struct {
		name string
		do   func(Store) error
	}{
		{"Save in the credential store", func(s Store) error { _, err := s.Save(testnet(), kept(), "live-api-key-1", false); return err }},
		{"Save in the file", func(s Store) error { _, err := s.Save(testnet(), kept(), "", true); return err }},
		{"Refused", func(s Store) error { return s.Refused(testnet(), kept(), t0) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			if _, err := s.Save(testnet(), kept(), "", true); err != nil {
				t.Fatal(err)
			}
			asked, free := 0, 0
			s.Now = func() time.Time {
				f, err := os.OpenFile(s.File+".lock", os.O_RDWR|os.O_CREATE, 0o600)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				asked++
				if !errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB), syscall.EWOULDBLOCK) {
					free++
				}
				return t0
			}
			if err := c.do(s); err != nil {
				t.Fatal(err)
			}
			if asked == 0 || free > 0 {
				t.Error("another process could write the session file between this one's read and write")
			}
		})
	}
}
