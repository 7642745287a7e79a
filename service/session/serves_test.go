package session

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestServes: a kept session serves a command given no API key, or the
// key kept with it; another key given logs in instead, and so does any key
// given beside a session kept without one (a wallet's, or in the file). A
// wallet's session serves beside a signing key known to be its wallet
// alone; an API key's beside any. Beside a key whose address is known
// only once opened, or kept before its wallet was recorded, it says why
// (UnservedError): a user cannot guess either.
func TestServes(t *testing.T) {
	mine := common.HexToAddress(kept().AccountID)
	another := common.HexToAddress("0x0b7d4c1377e2a9f05c3d8b1e6a4f2c9d0e7b5a31")
	for _, c := range []struct {
		kept, method, wallet string
		given                string
		signing              Signing
		want                 bool
		why                  string // what the unserved words hold; "" for none
	}{
		{"live-api-key-1", "API key", "", "", Signing{}, true, ""},
		{"live-api-key-1", "API key", "", "live-api-key-1", Signing{}, true, ""},
		{"live-api-key-1", "API key", "", "live-api-key-2", Signing{}, false, ""},
		{"", "wallet", mine.Hex(), "", Signing{}, true, ""},
		{"", "wallet", mine.Hex(), "live-api-key-1", Signing{}, false, ""},
		{"live-api-key-1", "API key", "", "", Signing{Given: true, Wallet: another}, true, ""},
		{"", "API key", "", "", Signing{Given: true}, true, ""},
		{"", "wallet", mine.Hex(), "", Signing{Given: true, Wallet: mine}, true, ""},
		{"", "wallet", mine.Hex(), "", Signing{Given: true, Wallet: another}, false, ""},
		{"", "wallet", mine.Hex(), "", Signing{Given: true}, false, "is not used: the key source names no account, so it cannot be told to be its wallet, " + mine.Hex()},
		{"", "wallet", "", "", Signing{Given: true, Wallet: mine}, false, "was made by an earlier version of svcwallet, which did not record its wallet"},
		{"", "wallet", "", "", Signing{Given: true}, false, "was made by an earlier version of svcwallet"},
		{"", "wallet", "", "", Signing{}, true, ""},
	} {
		l := Loaded{APIKey: c.kept, Entry: Entry{Env: "prod", Method: c.method, Wallet: c.wallet}}
		got, unserved := l.Serves(c.given, c.signing)
		if got != c.want || (unserved == nil) != (c.why == "") || unserved != nil && !strings.Contains(unserved.Error(), "the wallet session kept for prod ") ||
			unserved != nil && !strings.Contains(unserved.Error(), c.why) {
			t.Errorf("kept %q by %s %s, given %q and %+v: %v (%v), want %v (%q)", c.kept, c.method, c.wallet, c.given, c.signing, got, unserved, c.want, c.why)
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
