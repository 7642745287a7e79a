package service

import (
	"strings"
	"testing"
)

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{
		"1", "0.000001", "25.5", "999999999999.999999", "1000000000000", "0", "0.0000001",
		"-1", "1e6", "", ".5", "5.", " 1", "1,000", "٣", "0000000000000000001.100000",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseAmount(s)
		if err != nil {
			return
		}
		if !d.IsPositive() {
			t.Fatalf("accepted %q as %s, not positive", s, d)
		}
		if _, frac, _ := strings.Cut(s, "."); len(frac) > TokenDecimals {
			t.Fatalf("accepted %q with %d decimal places", s, len(frac))
		}
		raw, err := RawUnits(d)
		if err != nil {
			t.Fatalf("accepted %q but RawUnits refuses it: %v", s, err)
		}
		if back := FromRawUnits(raw); !back.Equal(d) {
			t.Fatalf("%q → %d raw units → %s", s, raw, back)
		}
	})
}
