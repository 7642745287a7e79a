package service

import (
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
	if s == "" {
		return decimal.Decimal{}, errors.New("amount is empty")
	}
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" {
		return decimal.Decimal{}, errors.New("amount needs a digit before the decimal point")
	}
	if hasDot && frac == "" {
		return decimal.Decimal{}, errors.New("amount needs a digit after the decimal point")
	}
	for _, part := range []string{intPart, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return decimal.Decimal{}, fmt.Errorf("amount may hold only digits and one decimal point, not %q", r)
			}
		}
	}
	if len(frac) > TokenDecimals {
		return decimal.Decimal{}, fmt.Errorf("amount has %d decimal places; at most %d are allowed", len(frac), TokenDecimals)
	}
	if len(strings.TrimLeft(intPart, "0")) > maxAmountDigits {
		return decimal.Decimal{}, errors.New("amount is too large")
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, errors.New("amount is not a decimal number")
	}
	if !d.IsPositive() {
		return decimal.Decimal{}, errors.New("amount must be more than zero")
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

// FormatAmount renders an amount as a plain decimal string with no exponent.
func FormatAmount(d decimal.Decimal) string { return d.String() }
