package session

import (
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestRenewsAnyCaseOfItsAddress: a login that answers the kept session's
// account id in another letter case of its address renews it in its place
// (exchange.SameAccountID); an opaque id of another case is another's.
func TestRenewsAnyCaseOfItsAddress(t *testing.T) {
	e := Entry{Env: "local", AccountID: "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5"}
	if !e.Renews(exchange.Kept{Session: exchange.Session{AccountID: "0x5F1C2E9A3B7D4C1308A6E2F9B0C4D7E1A2B3C4D5"}}) {
		t.Error("the same address in another letter case does not renew the kept session")
	}
	if (Entry{Env: "local", AccountID: "acct-a"}).Renews(exchange.Kept{Session: exchange.Session{AccountID: "ACCT-A"}}) {
		t.Error("an opaque account id folded: another account's login kept in its place")
	}
}
