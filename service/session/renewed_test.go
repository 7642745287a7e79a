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

// TestRenewalKeepsARotatedKey: a renewal by the API key a command read at
// its start is not kept once an auth login of the same account by another
// key (a rotated one) or by its wallet was made meanwhile: written over,
// the old key came back to the credential store, and every later command
// logged in with it (refused once it is revoked: log in again).
func TestRenewalKeepsARotatedKey(t *testing.T) {
	s := newStore(t)
	e := testnet()
	if _, err := s.Save(e, kept(), "key-old", false); err != nil {
		t.Fatal(err)
	}
	rotated := kept()
	rotated.Cookie = "tok-rotated"
	if _, err := s.Save(e, rotated, "key-new", false); err != nil {
		t.Fatal(err)
	}
	renewed := kept()
	renewed.Cookie = "tok-renewed-by-old"
	if kept, err := s.SaveRenewal(e, renewed, "key-old", false); kept || err != nil {
		t.Fatalf("a renewal by the old key kept over the rotated one: %v, %v", kept, err)
	}
	if l, err := s.Load(e); err != nil || l.Cookie != "tok-rotated" || l.APIKey != "key-new" {
		t.Fatalf("kept cookie %q, key %q, %v; want the rotated key's login", l.Cookie, l.APIKey, err)
	}
	if kept, err := s.SaveRenewal(e, renewed, "key-new", false); !kept || err != nil {
		t.Fatalf("the renewal by the key kept: %v, %v", kept, err)
	}

	// Its wallet's login meanwhile keeps no API key: an API key's renewal
	// does not take its place either.
	if _, err := s.Save(e, rotated, "", false); err != nil {
		t.Fatal(err)
	}
	if kept, err := s.SaveRenewal(e, renewed, "key-new", false); kept || err != nil {
		t.Fatalf("an API key's renewal kept over a wallet's login: %v, %v", kept, err)
	}
}

// TestLoginWithoutAKeyKeepsTheKeptKey: once the kept session ended, the
// next command logs in as it is told (a wallet, $SVCWALLET_API_KEY) and its
// session takes the ended one's place; it used no API key of the store's,
// and removed the one kept there, which only auth logout (or an auth login
// by another credential) forgets.
func TestLoginWithoutAKeyKeepsTheKeptKey(t *testing.T) {
	s := newStore(t)
	e := testnet()
	if _, err := s.Save(e, kept(), "key-kept", false); err != nil {
		t.Fatal(err)
	}
	if err := s.Refused(e, kept(), t0.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	byWallet := kept()
	byWallet.Cookie, byWallet.Method = "tok-wallet", "wallet"
	if kept, err := s.SaveRenewal(e, byWallet, "", false); !kept || err != nil {
		t.Fatalf("its account's login in the ended session's place: %v, %v", kept, err)
	}
	if l, err := s.Load(e); err != nil || l.Cookie != "tok-wallet" || l.APIKey != "key-kept" {
		t.Fatalf("kept cookie %q, key %q, %v; want the new login beside the key kept", l.Cookie, l.APIKey, err)
	}
	if _, err := s.Forget(e.Name); err != nil {
		t.Fatal(err)
	}
	if s.apiKey(e) != "" {
		t.Error("auth logout left the API key kept")
	}
}
