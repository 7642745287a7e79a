package signer

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/shopspring/decimal"
)

// ParseFeeRate converts a request's fee-rate string (a percentage such as
// "0.1") into the uint32 of the signed message: the string × 10,000, exactly.
// More than 4 decimal places, a sign, an exponent or a value beyond uint32 is
// refused with the reason, never rounded.
func ParseFeeRate(s string) (uint32, error) {
	if s == "" {
		return 0, errors.New("fee rate is empty")
	}
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" || (hasDot && frac == "") {
		return 0, errors.New("fee rate needs digits on both sides of the decimal point, such as 0.1")
	}
	for _, r := range intPart + frac {
		if r < '0' || r > '9' {
			if r == '-' {
				return 0, errors.New("fee rate cannot be negative")
			}
			return 0, fmt.Errorf("fee rate may hold only digits and one decimal point, not %q", r)
		}
	}
	if len(frac) > 4 {
		return 0, fmt.Errorf("fee rate has %d decimal places; at most 4 are allowed", len(frac))
	}
	if len(strings.TrimLeft(intPart, "0")) > 10 {
		return 0, errors.New("fee rate is too large")
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return 0, fmt.Errorf("fee rate %q is not a decimal", s)
	}
	scaled := d.Shift(4)
	if scaled.GreaterThan(decimal.NewFromInt(math.MaxUint32)) {
		return 0, errors.New("fee rate is too large for the signed message")
	}
	return uint32(scaled.IntPart()), nil
}

// FormatFeeRate renders a signed integer back as the request string ("1000" → "0.1").
func FormatFeeRate(v uint32) string {
	return decimal.NewFromInt(int64(v)).Shift(-4).String()
}
