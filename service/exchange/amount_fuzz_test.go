package exchange

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"

	"github.com/shopspring/decimal"
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

// FuzzWireAmount: an amount read from an answer or the journal is accepted
// only as plain digits, at most 18 before the point and the allowed places
// after it (trailing zeros aside), never negative, and reads as its text.
func FuzzWireAmount(f *testing.F) {
	for _, s := range []string{
		"1", "23.5", "0.000001", "999999999999999999.999999", "1000000000000000000", "1.0000001", "1.50000000",
		"-1", "1e3", "", ".5", "5.", "1.2.3", " 1", "0x10", "NaN", "1_000", strings.Repeat("9", 40),
	} {
		f.Add(s, uint8(6), true)
	}
	f.Fuzz(func(t *testing.T, s string, places uint8, quoted bool) {
		decimals := int(places % 19)
		raw := s
		if quoted {
			b, _ := json.Marshal(s)
			raw = string(b)
		}
		var a WireAmount
		if err := a.UnmarshalJSON([]byte(raw)); err != nil {
			return
		}
		s = string(a) // the text inside the JSON value
		d, err := a.Decode("amount", decimals, false)
		if err != nil || s == "" {
			return
		}
		intPart, frac, _ := strings.Cut(s, ".")
		switch {
		case d.IsNegative():
			t.Fatalf("accepted %q as negative %s", s, d)
		case len(intPart) > maxWireDigits || len(frac) > maxWireDigits:
			t.Fatalf("accepted %q, over %d digits on a side", s, maxWireDigits)
		case len(strings.TrimRight(frac, "0")) > decimals:
			t.Fatalf("accepted %q with more than %d places", s, decimals)
		case strings.Trim(intPart+frac, "0123456789") != "":
			t.Fatalf("accepted %q, which is not plain digits", s)
		case !d.Equal(decimal.RequireFromString(s)):
			t.Fatalf("%q read as %s", s, d)
		}
	})
}

// FuzzCheckID: an accepted id is 1 to 128 letters, digits, '.', '_', ':'
// and '-', and a user's quote id is accepted exactly when an answer's is.
func FuzzCheckID(f *testing.F) {
	for _, s := range []string{"q-abc", "q-1234$(touch${IFS}/tmp/PWNED)", "q-1;q-2", "a,b", "", strings.Repeat("q", 129), "acct:5f.1_c", "q\x00", "ｑ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckID("id", s, true)
		if err == nil {
			if s == "" || len(s) > maxIDLen {
				t.Fatalf("accepted an id of %d characters", len(s))
			}
			for _, r := range s {
				if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._:-", r)) {
					t.Fatalf("accepted %q holding %q", s, r)
				}
			}
		}
		if user := CheckQuoteID(s); (user == nil) != (err == nil) && !safetext.HoldsKeyShape(s) {
			t.Fatalf("%q: an answer's id check says %v, a user's %v", s, err, user)
		}
	})
}
