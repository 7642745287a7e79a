package exchange

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/shopspring/decimal"
)

// TestRawUnits: numTokens is the amount × 10^6 exactly; an amount with a
// 7th decimal, a negative one or one past uint64 is refused, never rounded
// or truncated into a Transfer for another amount.
func TestRawUnits(t *testing.T) {
	for s, want := range map[string]uint64{
		"25": 25_000_000, "0.000001": 1, "0": 0, "25.5000000": 25_500_000,
		"18446744073709.551615": math.MaxUint64,
	} {
		if got, err := RawUnits(decimal.RequireFromString(s)); err != nil || got != want {
			t.Errorf("%s: %d (%v), want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"25.0000001", "0.0000009", "-0.000001", "-25", "18446744073709.551616"} {
		if got, err := RawUnits(decimal.RequireFromString(s)); err == nil {
			t.Errorf("%s: %d raw units, want a refusal", s, got)
		}
	}
}

// TestWireAmountReadsAsJSON: a quoted amount is the string encoding/json
// reads, escapes and all, whether it takes the plain path or not.
func TestWireAmountReadsAsJSON(t *testing.T) {
	for _, raw := range []string{`"10"`, `"1\u0030"`, `"2\u002e5"`, `"\u0031"`, `"1.5"`, `"٣"`, `"1\"`, `""`, `"1"x"`, "\"1\x7f\"", `12.5`, `null`} {
		var a WireAmount
		err := a.UnmarshalJSON([]byte(raw))
		var want string
		werr := json.Unmarshal([]byte(raw), &want)
		if raw == `12.5` {
			want, werr = raw, nil // a bare number is kept as written
		}
		if (err == nil) != (werr == nil) || err == nil && string(a) != want {
			t.Errorf("%s: read as %q (%v), encoding/json reads %q (%v)", raw, a, err, want, werr)
		}
	}
}
