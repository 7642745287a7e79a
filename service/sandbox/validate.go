package sandbox

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
)

// The sandbox reads amounts, fee rates and signature words with its own
// code, written from SPEC.md and D4/D8, not the client's: a client parser
// that lets a bad value through must meet a refusal here.

// tokenDecimals is the places of USDT and USDC (SPEC.md §4.11, D8).
const tokenDecimals = 6

// amountDigits bounds the whole part so numTokens (× 10^6) fits in uint64.
const amountDigits = 12

// firstNonDigit is the first rune of s that is not 0-9, if any.
func firstNonDigit(s string) (rune, bool) {
	for _, r := range s {
		if r < '0' || r > '9' {
			return r, true
		}
	}
	return 0, false
}

// parseAmount reads a quote's amount (D8): plain digits with at most 6
// places, more than zero; no sign, exponent, spaces or separators.
func parseAmount(s string) (decimal.Decimal, error) {
	whole, frac, dot := strings.Cut(s, ".")
	switch {
	case whole == "":
		return decimal.Decimal{}, errors.New("amount needs a digit before the decimal point")
	case dot && frac == "":
		return decimal.Decimal{}, errors.New("amount needs a digit after the decimal point")
	}
	for _, part := range []string{whole, frac} {
		if r, bad := firstNonDigit(part); bad {
			return decimal.Decimal{}, fmt.Errorf("amount may hold only digits and one decimal point, not %q", r)
		}
	}
	switch {
	case len(frac) > tokenDecimals:
		return decimal.Decimal{}, fmt.Errorf("amount has %d decimal places; at most %d are allowed", len(frac), tokenDecimals)
	case len(strings.TrimLeft(whole, "0")) > amountDigits:
		return decimal.Decimal{}, errors.New("amount is too large")
	}
	// Digits and at most one point: a decimal by construction.
	d := decimal.RequireFromString(s)
	if d.Sign() <= 0 {
		return decimal.Decimal{}, errors.New("amount must be more than zero")
	}
	return d, nil
}

// numTokens is the Transfer's numTokens for an amount parseAmount accepted:
// × 10^6, exact (at most 6 places) and within uint64 (at most 12 digits).
func numTokens(d decimal.Decimal) uint64 {
	return d.Shift(tokenDecimals).BigInt().Uint64()
}

// feeRateDigits bounds a fee rate's whole part before it is scaled.
const feeRateDigits = 10

// The fee-rate refusals the published service has codes of its own for:
// a negative fee (7501) and one over the program's limit (7500; the
// sandbox's limit is the largest the signed uint32 holds).
var (
	errFeeNegative  = errors.New("fee rate cannot be negative")
	errFeeOverLimit = errors.New("fee rate is over the limit: × 10,000 it must fit the signed uint32 (at most 429496.7295)")
)

// parseFeeRate reads a builder fee-rate cap (D4): the signed uint32 is the
// decimal string × 10,000 exactly, so more than 4 places, a sign or a value
// beyond uint32 is refused, never rounded.
func parseFeeRate(s string) (uint32, error) {
	if strings.HasPrefix(s, "-") {
		return 0, errFeeNegative
	}
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || dot && frac == "" {
		return 0, errors.New("fee rate needs digits on both sides of the decimal point, such as 0.1")
	}
	if r, bad := firstNonDigit(whole + frac); bad {
		return 0, fmt.Errorf("fee rate may hold only digits and one decimal point, not %q", r)
	}
	switch {
	case len(frac) > 4:
		return 0, fmt.Errorf("fee rate has %d decimal places; at most 4 are allowed", len(frac))
	case len(strings.TrimLeft(whole, "0")) > feeRateDigits:
		return 0, errFeeOverLimit
	}
	// × 10,000 is the digits with the fraction padded to 4 places: digits
	// only and at most 14 significant ones, so ParseUint cannot fail.
	scaled, _ := strconv.ParseUint(whole+frac+strings.Repeat("0", 4-len(frac)), 10, 64)
	if scaled > math.MaxUint32 {
		return 0, errFeeOverLimit
	}
	return uint32(scaled), nil
}

// parseWord reads a signature's r or s (SPEC.md §2.3): 0x and 64 hex
// digits. 0X is taken too: the prefix's case carries nothing.
func parseWord(s string) (common.Hash, bool) {
	var h common.Hash
	if len(s) != 2+2*len(h) || (s[:2] != "0x" && s[:2] != "0X") {
		return h, false
	}
	_, err := hex.Decode(h[:], []byte(s[2:]))
	return h, err == nil
}
