package signer

import (
	"strings"
	"testing"
)

func FuzzParseFeeRate(f *testing.F) {
	for _, s := range []string{
		"0.1", "0.001", "0.0005", "0.0001", "0", "1", "429496.7295", "429496.7296",
		"0.00001", "-0.1", "1e-3", "", ".", "1.", " 0.1", "0x10", "abc", "00000000000000429496.7295",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseFeeRate(s)
		if err != nil {
			return
		}
		if _, frac, _ := strings.Cut(s, "."); len(frac) > 4 {
			t.Fatalf("accepted %q with %d decimal places", s, len(frac))
		}
		text := FormatFeeRate(v)
		back, err := ParseFeeRate(text)
		if err != nil || back != v {
			t.Fatalf("%q → %d → %q → %d, %v", s, v, text, back, err)
		}
	})
}

func FuzzParsePermissions(f *testing.F) {
	for _, s := range []string{
		"Admin&Trade", "trade&admin", "Trade&Trade", "Root", "", "Trade, Admin",
		"InternalTransfer&ExternalTransfer&Withdraw&VaultInvestor", "&&", "InternalTranſfer",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParsePermissions(s)
		if err != nil {
			return
		}
		if ps == 0 || ps&^everyPermission != 0 {
			t.Fatalf("%q parsed to the impossible set %b", s, ps)
		}
		canon := ps.String()
		back, err := ParsePermissions(canon)
		if err != nil || back != ps {
			t.Fatalf("%q → %b → %q → %b, %v", s, ps, canon, back, err)
		}
	})
}
