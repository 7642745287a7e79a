package session

import (
	"errors"
	"testing"
	"time"
)

// TestRenewalKeptOnlyInItsAccountsPlace: a session renewed by a command
// that runs on (a watch, a --wait, the console) is kept only where its
// account's session is kept still. An auth login as another account made
// in another process meanwhile was written over, so the next command acted
// as the renewed account, unasked (its deposit addresses shown as the
// account just logged in); an auth logout made meanwhile was undone.
func TestRenewalKeptOnlyInItsAccountsPlace(t *testing.T) {
	for _, insecure := range []bool{false, true} {
		s := newStore(t)
		e := testnet()
		if _, err := s.Save(e, kept(), "key-of-b", insecure); err != nil {
			t.Fatal(err)
		}
		renewed := kept()
		renewed.Cookie = "tok-renewed"
		if kept, err := s.SaveRenewal(e, renewed, "key-of-b", insecure); !kept || err != nil {
			t.Fatalf("insecure %v: the renewal of the session kept: %v, %v", insecure, kept, err)
		}
		if l, err := s.Load(e); err != nil || l.Cookie != "tok-renewed" {
			t.Fatalf("insecure %v: kept %+v, %v; want the renewal", insecure, l, err)
		}

		// Another process logs in as another account.
		other := kept()
		other.Cookie, other.AccountID = "tok-a", "0x0b7d4c1377e2a9f05c3d8b1e6a4f2c9d0e7b5a31"
		if _, err := s.Save(e, other, "key-of-a", insecure); err != nil {
			t.Fatal(err)
		}
		renewed.Cookie = "tok-renewed-again"
		if kept, err := s.SaveRenewal(e, renewed, "key-of-b", insecure); kept || err != nil {
			t.Fatalf("insecure %v: a renewal kept over another account's login: %v, %v", insecure, kept, err)
		}
		l, err := s.Load(e)
		if err != nil || l.Cookie != "tok-a" || l.AccountID != other.AccountID || !insecure && l.APIKey != "key-of-a" {
			t.Fatalf("insecure %v: kept %+v, %v; want the other account's login", insecure, l, err)
		}

		// Ended (refused), its account's renewal takes its place.
		if err := s.Refused(e, other, t0.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		other.Cookie = "tok-a-renewed"
		if kept, err := s.SaveRenewal(e, other, "key-of-a", insecure); !kept || err != nil {
			t.Fatalf("insecure %v: its account's renewal of an ended session: %v, %v", insecure, kept, err)
		}

		// Logged out meanwhile: nothing is kept again.
		if _, err := s.Forget(e.Name); err != nil {
			t.Fatal(err)
		}
		if kept, err := s.SaveRenewal(e, other, "key-of-a", insecure); kept || err != nil {
			t.Fatalf("insecure %v: a renewal kept after a logout: %v, %v", insecure, kept, err)
		}
		if _, err := s.Load(e); !errors.Is(err, ErrNone) {
			t.Fatalf("insecure %v: after a logout and a renewal: %v", insecure, err)
		}
	}
}
