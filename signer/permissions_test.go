package signer

import (
	"math/bits"
	"strings"
	"testing"
)

func TestParsePermissions(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Admin&Trade", "Admin&Trade"},
		{"trade&admin", "Admin&Trade"},
		{"TRADE", "Trade"},
		{"Trade", "Trade"},
		{"withdraw&vaultinvestor&ADMIN", "Admin&Withdraw&VaultInvestor"},
		{"Trade, Admin", "Admin&Trade"},
		{"externaltransfer internaltransfer", "InternalTransfer&ExternalTransfer"},
		{"&Trade&", "Trade"},
		{"Trade&VaultInvestor&Withdraw&ExternalTransfer&InternalTransfer&Admin", "Admin&InternalTransfer&ExternalTransfer&Withdraw&VaultInvestor&Trade"},
	} {
		ps, err := ParsePermissions(tc.in)
		if err != nil {
			t.Errorf("ParsePermissions(%q): %v", tc.in, err)
			continue
		}
		if got := ps.String(); got != tc.want {
			t.Errorf("ParsePermissions(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestParsePermissionsRefusals(t *testing.T) {
	for _, tc := range []struct{ in, why string }{
		{"", "no permission given"},
		{"&&", "no permission given"},
		{" , ", "no permission given"},
		{"Trade&Trade", "given twice"},
		{"admin&Trade&ADMIN", "given twice"},
		{"Root", "unknown permission"},
		{"Trade&Root", "unknown permission"},
		{"Trade|Admin", "unknown permission"},
		{"Tradé", "unknown permission"},
		{"InternalTranſfer", "unknown permission"}, // long s folds to s in Unicode, not in ASCII
		{"Trade\x00", "unknown permission"},
		{strings.Repeat("x", 10_000), "unknown permission"},
	} {
		ps, err := ParsePermissions(tc.in)
		if err == nil {
			t.Errorf("ParsePermissions(%.40q) = %s, want refusal (%s)", tc.in, ps, tc.why)
			continue
		}
		if !strings.Contains(err.Error(), tc.why) {
			t.Errorf("ParsePermissions(%.40q) error %q, want one mentioning %q", tc.in, err, tc.why)
		}
		if len(err.Error()) > 200 {
			t.Errorf("ParsePermissions(%.40q) error is %d bytes: it echoes the input", tc.in, len(err.Error()))
		}
	}
}

// TestEveryPermissionSetRoundTrips walks all 63 non-empty sets: each has one
// canonical string, that string parses back to the set, and no two sets
// share a string, so string↔bitmask is 1-to-1.
func TestEveryPermissionSetRoundTrips(t *testing.T) {
	seen := map[string]Permissions{}
	for mask := uint(1); mask < 64; mask++ {
		ps := Permissions(mask << 1) // bit n is permission n; bit 0 is unused
		s := ps.String()
		if prev, dup := seen[s]; dup {
			t.Fatalf("sets %b and %b share the string %q", prev, ps, s)
		}
		seen[s] = ps
		if back, err := ParsePermissions(s); err != nil || back != ps {
			t.Errorf("%b → %q → %b, %v", ps, s, back, err)
		}
		names := strings.Split(s, "&")
		if len(names) != bits.OnesCount(mask) {
			t.Errorf("%q has %d names for %d bits", s, len(names), bits.OnesCount(mask))
		}
		// Reversed and lowercased still means the same set.
		for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
			names[i], names[j] = names[j], names[i]
		}
		rev := strings.ToLower(strings.Join(names, "&"))
		if back, err := ParsePermissions(rev); err != nil || back != ps {
			t.Errorf("%q → %b, %v; want %b", rev, back, err, ps)
		}
	}
	if len(seen) != 63 {
		t.Fatalf("%d distinct strings, want 63", len(seen))
	}
}

func TestPermissionBits(t *testing.T) {
	for _, tc := range []struct {
		p    Permission
		name string
		bit  uint
	}{
		{PermAdmin, "Admin", 1}, {PermInternalTransfer, "InternalTransfer", 2}, {PermExternalTransfer, "ExternalTransfer", 3},
		{PermWithdraw, "Withdraw", 4}, {PermVaultInvestor, "VaultInvestor", 5}, {PermTrade, "Trade", 6},
	} {
		if tc.p.String() != tc.name || Permissions(0).With(tc.p) != Permissions(1)<<tc.bit {
			t.Errorf("%s: name %q, mask %b; want bit %d", tc.name, tc.p, Permissions(0).With(tc.p), tc.bit)
		}
	}
}
