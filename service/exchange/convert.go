package exchange

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// ConversionTolerance bounds a converting quote (token_out ≠ token_in,
// SPEC.md §4.8): the bridge converts one USD stablecoin into another, so
// what it pays out, valued 1:1, is at most this share above what it debits
// less its fee. Stablecoins trade a fraction of a percent apart; a quote
// further above 1:1 pays out more than it takes, which is not a price.
var ConversionTolerance = decimal.RequireFromString("0.01")

// Converts reports whether a quote from token in to token out converts:
// its receive amount is in another token than its pay amount and fee.
func Converts(in, out string) bool { return !strings.EqualFold(in, out) }

// addsUp holds quote q, asked from token in to token out, to what it
// debits: paying out the debited token, receive ≤ pay − fee (the fee, in
// token_in, is part of the loss); converting, receive ≤ (pay − fee) ×
// (1 + ConversionTolerance), the payout valued 1:1.
func (q Quote) addsUp(in, out string) error {
	if Converts(in, out) {
		most := q.PayAmount.Sub(q.Fee).Mul(decimal.NewFromInt(1).Add(ConversionTolerance))
		if q.ReceiveAmount.GreaterThan(most) {
			in, out = safetext.Line(in, safetext.MaxNameLen), safetext.Line(out, safetext.MaxNameLen)
			return NewShapeError("quote", "does not add up: it pays out %s %s for %s %s less its fee of %s, more than %s%% above 1:1 (at most %s %s), which no conversion of stablecoins gives",
				q.ReceiveAmount, out, q.PayAmount, in, q.Fee, ConversionTolerance.Shift(2), most.Truncate(int32(TokenDecimalsOf(out))), out)
		}
		return nil
	}
	switch {
	case q.ReceiveAmount.GreaterThan(q.PayAmount):
		return NewShapeError("receive amount", "%s is above the pay amount %s", q.ReceiveAmount, q.PayAmount)
	case q.Fee.GreaterThan(q.Cost()):
		return NewShapeError("quote", "does not add up: its fee %s is more than pay − receive (%s − %s = %s), the loss the fee is part of", q.Fee, q.PayAmount, q.ReceiveAmount, q.Cost())
	}
	return nil
}
