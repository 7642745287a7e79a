package journal

import "testing"

// TestOwnerHoldsAnyCaseOfItsAddress: a record journaled with the account
// id the service answered in one letter case is the account's when it
// answers another case of the same address (exchange.SameAccountID): it
// was hidden. An opaque id is still compared exactly.
func TestOwnerHoldsAnyCaseOfItsAddress(t *testing.T) {
	o := Owner{Env: "local", AccountID: "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5"}
	rec := Record{QuoteID: "q-1", Env: "local", AccountID: "0x5F1C2E9A3B7D4C1308A6E2F9B0C4D7E1A2B3C4D5"}
	if !o.Holds(rec) || !o.mayHold(Entry{AccountID: rec.AccountID}) {
		t.Errorf("the account's own record, journaled in another letter case, is not its own")
	}
	if (Owner{Env: "local", AccountID: "acct-a"}).Holds(Record{Env: "local", AccountID: "ACCT-A"}) {
		t.Errorf("an opaque account id folded: another account's record taken for its own")
	}
}
