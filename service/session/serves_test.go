package session

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestServes: a kept session serves a command given no API key, or the
// key kept with it; another key given logs in instead, and so does any key
// given beside a session kept without one (a wallet's, or in the file). A
// wallet's session serves beside a signing key known to be its wallet
// alone; an API key's beside any.
func TestServes(t *testing.T) {
	mine := common.HexToAddress(kept().AccountID)
	another := common.HexToAddress("0x0b7d4c1377e2a9f05c3d8b1e6a4f2c9d0e7b5a31")
	for _, c := range []struct {
		kept, method, wallet string
		given                string
		signing              Signing
		want                 bool
	}{
		{"live-api-key-1", "API key", "", "", Signing{}, true},
		{"live-api-key-1", "API key", "", "live-api-key-1", Signing{}, true},
		{"live-api-key-1", "API key", "", "live-api-key-2", Signing{}, false},
		{"", "wallet", mine.Hex(), "", Signing{}, true},
		{"", "wallet", mine.Hex(), "live-api-key-1", Signing{}, false},
		{"live-api-key-1", "API key", "", "", Signing{Given: true, Wallet: another}, true},
		{"", "API key", "", "", Signing{Given: true}, true},
		{"", "wallet", mine.Hex(), "", Signing{Given: true, Wallet: mine}, true},
		{"", "wallet", mine.Hex(), "", Signing{Given: true, Wallet: another}, false},
		{"", "wallet", mine.Hex(), "", Signing{Given: true}, false},
		{"", "wallet", "", "", Signing{Given: true, Wallet: mine}, false},
		{"", "wallet", "", "", Signing{}, true},
	} {
		l := Loaded{APIKey: c.kept, Entry: Entry{Method: c.method, Wallet: c.wallet}}
		if got := l.Serves(c.given, c.signing); got != c.want {
			t.Errorf("kept %q by %s %s, given %q and %+v: %v, want %v", c.kept, c.method, c.wallet, c.given, c.signing, got, c.want)
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
