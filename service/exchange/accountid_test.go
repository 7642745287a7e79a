package exchange

import (
	"context"
	"testing"
)

// TestSameAccountID: an account id of an address's shape is that address
// in any letter case; any other id is an opaque token, compared exactly. A
// call pinned to an account (AsAccount) goes on a session the service
// answered in another case: the same account, never refused as another's.
func TestSameAccountID(t *testing.T) {
	const lower, mixed = "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5", "0x5F1C2e9a3b7d4c1308A6e2f9b0c4d7e1a2b3c4D5"
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{lower, lower, true},
		{lower, mixed, true},
		{lower, "0X" + lower[2:], true},
		{lower, lower[:41] + "6", false},
		{"acct-A", "acct-a", false}, // opaque: folding could make two accounts one
		{lower + "0", mixed + "0", false},
		{"", "", true},
	} {
		if got := SameAccountID(c.a, c.b); got != c.same {
			t.Errorf("SameAccountID(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
	ctx := AsAccount(context.Background(), Session{AccountID: lower})
	if err := pinned(ctx, Kept{Session: Session{AccountID: mixed}, Cookie: "c"}); err != nil {
		t.Errorf("a call pinned to %s refused on its session answered as %s: %v", lower, mixed, err)
	}
	if err := pinned(ctx, Kept{Session: Session{AccountID: "0x0b7d4c1377e2a9f05c3d8b1e6a4f2c9d0e7b5a31"}, Cookie: "c"}); err == nil {
		t.Error("a call pinned to one account went on another's session")
	}
}
