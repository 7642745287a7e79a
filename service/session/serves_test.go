package session

import "testing"

// TestServes: a kept session serves a command given no API key, or the
// key kept with it; another key given logs in instead, and so does any key
// given beside a session kept without one (a wallet's, or in the file).
func TestServes(t *testing.T) {
	for _, c := range []struct {
		kept, given string
		want        bool
	}{
		{"live-api-key-1", "", true},
		{"live-api-key-1", "live-api-key-1", true},
		{"live-api-key-1", "live-api-key-2", false},
		{"", "", true},
		{"", "live-api-key-1", false},
	} {
		if got := (Loaded{APIKey: c.kept}).Serves(c.given); got != c.want {
			t.Errorf("kept %q, given %q: %v, want %v", c.kept, c.given, got, c.want)
		}
	}
}

// TestRenews: a login kept in an ended session's place is its account's:
// the same account id and sub-account.
func TestRenews(t *testing.T) {
	en := Entry{AccountID: kept().AccountID}
	same, other, sub := kept(), kept(), kept()
	other.AccountID = "0x0b7d4c1377e2a9f05c3d8b1e6a4f2c9d0e7b5a31"
	sub.SubAccountID = "sub-1"
	if !en.Renews(same) || en.Renews(other) || en.Renews(sub) {
		t.Errorf("same %v, other account %v, a sub-account %v", en.Renews(same), en.Renews(other), en.Renews(sub))
	}
}
