package session

import (
	"errors"
	"os"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestForgetWithoutItsRecord: auth logout forgets what the credential
// store keeps for the environment when the session file holds no record
// of it (the file removed by hand, or the record taken out): it said no
// session was kept, and the store kept the session and the API key, used
// by nothing, forgotten by nothing.
func TestForgetWithoutItsRecord(t *testing.T) {
	for name, lose := range map[string]func(s Store) error{
		"file removed":   func(s Store) error { return os.Remove(s.File) },
		"record removed": func(s Store) error { return s.removeRecord("testnet") },
	} {
		t.Run(name, func(t *testing.T) {
			s := newStore(t)
			if _, err := s.Save(testnet(), kept(), "live-api-key-1", false); err != nil {
				t.Fatal(err)
			}
			if err := lose(s); err != nil {
				t.Fatal(err)
			}
			if had, err := s.Forget("testnet"); !had || err != nil {
				t.Errorf("Forget without the file's record: %v, %v; want what the store kept forgotten", had, err)
			}
			for _, user := range []string{sessionUser("testnet"), apiKeyUser("testnet")} {
				if _, err := keyring.Get(keyringService, user); !errors.Is(err, keyring.ErrNotFound) {
					t.Errorf("%s stays in the credential store after Forget: %v", user, err)
				}
			}
			if had, err := s.Forget("testnet"); had || err != nil {
				t.Errorf("Forget again, nothing kept: %v, %v", had, err)
			}
		})
	}
}
