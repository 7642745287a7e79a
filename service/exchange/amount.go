package exchange

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// maxAmountDigits bounds the integer part so raw units fit in uint64 (D8).
const maxAmountDigits = 12

// ParseAmount reads a token amount typed by a user or sent by a client: plain
// decimal digits with at most 6 places (USDT and USDC have 6 decimals), more
// than zero. No sign, exponent, spaces or thousands separators.
func ParseAmount(s string) (decimal.Decimal, error) {
	d, err := parsePlain("amount", s)
	if err == nil && !d.IsPositive() {
		return decimal.Decimal{}, errors.New("amount must be more than zero")
	}
	return d, err
}

// ParseCap reads a cap in a token's units (a withdrawal's fee cap) as
// ParseAmount reads an amount, zero allowed: a cap of zero takes no fee.
func ParseCap(what, s string) (decimal.Decimal, error) {
	return parsePlain(what, s)
}

// parsePlain reads s as plain decimal digits with at most 6 places and
// maxAmountDigits before the point; its errors name it what.
func parsePlain(what, s string) (decimal.Decimal, error) {
	if s == "" {
		return decimal.Decimal{}, errors.New(what + " is empty")
	}
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" {
		return decimal.Decimal{}, errors.New(what + " needs a digit before the decimal point")
	}
	if hasDot && frac == "" {
		return decimal.Decimal{}, errors.New(what + " needs a digit after the decimal point")
	}
	for _, part := range []string{intPart, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return decimal.Decimal{}, fmt.Errorf("%s may hold only digits and one decimal point, not %q", what, r)
			}
		}
	}
	if len(frac) > TokenDecimals {
		return decimal.Decimal{}, fmt.Errorf("%s has %d decimal places; at most %d are allowed", what, len(frac), TokenDecimals)
	}
	if len(strings.TrimLeft(intPart, "0")) > maxAmountDigits {
		return decimal.Decimal{}, fmt.Errorf("%s is too large: at most %d digits before the decimal point", what, maxAmountDigits)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, errors.New(what + " is not a decimal number")
	}
	return d, nil
}

// RawUnits converts a token amount to its integer raw units (× 10^6), the
// numTokens of the Transfer message. More than 6 places or a negative amount
// is refused rather than rounded.
func RawUnits(d decimal.Decimal) (uint64, error) {
	raw := d.Shift(TokenDecimals)
	if !raw.Equal(raw.Truncate(0)) {
		return 0, fmt.Errorf("amount %s has more than %d decimal places", d, TokenDecimals)
	}
	if raw.IsNegative() || raw.GreaterThan(decimal.NewFromUint64(^uint64(0))) {
		return 0, fmt.Errorf("amount %s is out of range", d)
	}
	return raw.BigInt().Uint64(), nil
}

// FromRawUnits is the inverse of RawUnits.
func FromRawUnits(raw uint64) decimal.Decimal {
	return decimal.NewFromUint64(raw).Shift(-TokenDecimals)
}

// maxWireDigits bounds each side of the decimal point of an amount read
// from an answer or the journal: 18 digits hold any balance a token can
// have, and a longer one costs seconds to parse and every redraw to draw.
const maxWireDigits = 18

// TokenDecimalsOf is how many decimals a token's amounts may carry: 6 for
// USDT and USDC (D8), the decode bound for any other.
func TokenDecimalsOf(token string) int {
	if token == TokenUSDT || token == TokenUSDC {
		return TokenDecimals
	}
	return maxWireDigits
}

// WireAmount is an amount as it was read (a JSON string or number), kept as
// text until its length is checked: it is never parsed unbounded.
type WireAmount string

func (a *WireAmount) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		*a = ""
	case len(b) > 1 && b[0] == '"' && b[len(b)-1] == '"' && plainString(b[1:len(b)-1]):
		*a = WireAmount(b[1 : len(b)-1])
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = WireAmount(s)
	default:
		*a = WireAmount(b)
	}
	return nil
}

// plainString reports whether the inside of a JSON string reads as
// itself: printable ASCII with no escape or quote, as amounts are written.
func plainString(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f || c == '\\' || c == '"' {
			return false
		}
	}
	return true
}

// Decode parses the amount of field: plain digits, at most 18 before the
// point and places after it (decimals, trailing zeros aside), never
// negative. An absent amount is zero unless required.
func (a WireAmount) Decode(field string, decimals int, required bool) (decimal.Decimal, error) {
	s := string(a)
	if s == "" {
		if required {
			return decimal.Decimal{}, NewShapeError(field, "is missing")
		}
		return decimal.Zero, nil
	}
	if strings.HasPrefix(s, "-") {
		return decimal.Decimal{}, NewShapeError(field, "is negative")
	}
	intPart, frac, dot := strings.Cut(s, ".")
	switch {
	case intPart == "" || dot && frac == "" || strings.Trim(intPart, "0123456789") != "" || strings.Trim(frac, "0123456789") != "":
		return decimal.Decimal{}, NewShapeError(field, "is not a plain decimal number")
	case len(intPart) > maxWireDigits:
		return decimal.Decimal{}, NewShapeError(field, "has more than %d digits before the decimal point", maxWireDigits)
	case len(frac) > maxWireDigits || len(strings.TrimRight(frac, "0")) > decimals:
		return decimal.Decimal{}, NewShapeError(field, "has more than %d decimal places", decimals)
	}
	return decimal.NewFromString(s)
}
