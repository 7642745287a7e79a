package withdrawal

import (
	"errors"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// A withdrawal that is mostly fee (issue 28 item 1): what the user loses
// (pay − receive, the fee included) as a share of what they pay. Above
// LossWarnShare every face warns on the quote and the review; above
// LossConfirmShare nothing is signed without a second, separate yes.
var (
	LossWarnShare    = decimal.RequireFromString("0.05")
	LossConfirmShare = decimal.RequireFromString("0.5")
)

var hundred = decimal.NewFromInt(100)

// Loss is what a quote takes from the amount paid.
type Loss struct {
	Lost, Paid decimal.Decimal
	// Received is the payout, in Out; Fee the quote's fee, in In.
	Received, Fee decimal.Decimal
	// Share is Lost / Paid (0 when nothing is paid).
	Share decimal.Decimal
	// In and Out are the tokens paid and received. When they differ the
	// bridge converts: Lost is the fee (FeeOnly), or below 1:1 pay −
	// receive with the payout valued 1:1, the only value svcwallet has for
	// it, and every face says which.
	In, Out string
}

// Loss is what o's quote takes from what it pays: pay − receive, the fee
// included. A converting quote's is never below its fee: a payout at or
// above 1:1 (within exchange.ConversionTolerance) loses the fee, a gain on
// the conversion never counts against it, so every guard counts the fee.
func (o Order) Loss() Loss {
	q := o.Quote
	l := Loss{Lost: q.Cost(), Paid: q.PayAmount, Received: q.ReceiveAmount, Fee: q.Fee, In: o.Choice.TokenIn, Out: o.Choice.TokenOut}
	if l.FeeOnly() {
		l.Lost = l.Fee
	}
	if l.Paid.IsPositive() {
		l.Share = l.Lost.Div(l.Paid)
	}
	return l
}

// Converts: the payout is another token than the one paid, valued 1:1.
func (l Loss) Converts() bool { return exchange.Converts(l.In, l.Out) }

// FeeOnly: a converted payout at or above 1:1 of what the fee leaves, so
// the loss is the fee alone.
func (l Loss) FeeOnly() bool {
	return l.Converts() && !l.Paid.Sub(l.Received).GreaterThan(l.Fee)
}

// Conversion notes a payout the bridge converts; "" for one it does not.
func (l Loss) Conversion() string {
	if !l.Converts() {
		return ""
	}
	return "the bridge converts " + l.In + " to " + l.Out
}

// Valued says how Lost counts a converted payout ("" when it counts none:
// nothing converted, or the loss is the fee alone): one token's number is
// never taken from another's unsaid.
func (l Loss) Valued() string {
	if !l.Converts() || l.FeeOnly() {
		return ""
	}
	return "with 1 " + l.Out + " valued at 1 " + l.In
}

// made is what Lost is made of when that is not plain pay − receive in
// one token: the fee alone, or a converted payout's valuation.
func (l Loss) made() string {
	if l.FeeOnly() {
		return "the fee"
	}
	return l.Valued()
}

// Kept is what Lost is made of in the fewest words, for a review short of
// room: the fee alone, or a converted payout valued 1:1; "" for plain pay
// − receive in one token.
func (l Loss) Kept() string {
	switch {
	case l.FeeOnly():
		return "the fee"
	case l.Converts():
		return l.Out + " at 1:1"
	}
	return ""
}

// Basis is how Lost is reckoned, as a review notes it.
func (l Loss) Basis() string {
	switch {
	case l.FeeOnly():
		return "the fee; the bridge converts the remaining " + l.Paid.Sub(l.Fee).String() + " " + l.In + " to " + l.Received.String() + " " + l.Out
	case l.Converts():
		return "pay − receive " + l.Valued() + ", the fee included"
	}
	return "pay − receive, the fee included"
}

// Said is Lost with its token and, when converted, what it is made of.
func (l Loss) Said() string {
	if l.Converts() {
		return l.Lost.String() + " " + l.In + " (" + l.made() + ")"
	}
	return l.Lost.String() + " " + l.In
}

// Reckoned is Said with the pay and receive amounts it comes from.
func (l Loss) Reckoned() string {
	if l.Converts() {
		return l.Lost.String() + " " + l.In + " (" + l.made() + "; pay " + l.Paid.String() + " " + l.In + ", receive " + l.Received.String() + " " + l.Out + ")"
	}
	return l.Lost.String() + " " + l.In + " (pay " + l.Paid.String() + ", receive " + l.Received.String() + ")"
}

// Stated is Lost as the review's You lose says it, with its share of the
// amount.
func (l Loss) Stated() string {
	return l.Lost.String() + " " + l.In + ", " + l.Percent().String() + "% of the amount"
}

// High: the loss is above LossWarnShare of the amount, worth a warning.
func (l Loss) High() bool { return l.Share.GreaterThan(LossWarnShare) }

// Severe: the loss is above LossConfirmShare of the amount, so most of the
// withdrawal goes to fees: it needs a second confirmation.
func (l Loss) Severe() bool { return l.Share.GreaterThan(LossConfirmShare) }

// Percent is the share in percent, rounded up to one decimal, so that
// accepting Percent accepts this loss.
func (l Loss) Percent() decimal.Decimal { return l.Share.Mul(hundred).RoundCeil(1) }

// Warning words a loss above LossWarnShare of the amount paid, as
// every face warns of it; "" for a smaller one.
func (l Loss) Warning() string {
	lost := "you lose " + l.Lost.String() + " " + l.In + " of the " + l.Paid.String() + " " + l.In + " you pay (" + l.Percent().String() + "%)"
	if l.FeeOnly() {
		lost += ", all of it the fee"
	} else if l.Converts() {
		lost += ", " + l.Valued()
	}
	switch {
	case l.Severe():
		return "Most of this withdrawal goes to fees: " + lost
	case l.High():
		return "More than " + LossWarnShare.Shift(2).String() + "% of the amount goes to fees: " + lost
	}
	return ""
}

// LossAbove is a loss larger than the share the user accepted beforehand
// (AcceptsLoss): nothing is signed.
type LossAbove struct {
	Loss     Loss
	Accepted decimal.Decimal // percent
}

func (e *LossAbove) Error() string {
	return "you would lose " + e.Loss.Said() + " of the " + e.Loss.Paid.String() + " " + e.Loss.In + " paid (" + e.Loss.Percent().String() +
		"%), above the " + e.Accepted.String() + "% accepted"
}

// ErrSevereLoss is a loss above LossConfirmShare that was not confirmed a
// second time: nothing is signed.
var ErrSevereLoss = errors.New("most of the amount would be lost to fees, and that was not confirmed")

// AcceptsLoss decides whether a withdrawal with loss l may be signed
// without asking again: accepted is the percentage of the amount the user
// said beforehand they accept losing (not Valid: none said). A loss above
// it is refused (*LossAbove); a severe loss with none said needs its second
// confirmation (ErrSevereLoss).
func AcceptsLoss(l Loss, accepted decimal.NullDecimal) error {
	switch {
	case accepted.Valid && l.Share.Mul(hundred).GreaterThan(accepted.Decimal):
		return &LossAbove{Loss: l, Accepted: accepted.Decimal}
	case !accepted.Valid && l.Severe():
		return ErrSevereLoss
	}
	return nil
}

// AnswerLoss records the person's second yes to o's loss, as seen: a
// fresh quote losing more is not covered by it (lossRefusal).
func (o *Order) AnswerLoss() { o.LossAnswered = decimal.NewNullDecimal(o.Loss().Lost) }

// lossRefusal refuses, before anything is signed, prepared or asked of
// the service, a loss AcceptsLoss does not let through: above the share
// said beforehand, or severe with none said and no second yes recorded
// to it (LossAnswered) or one to a smaller loss. The error wraps
// ErrSevereLoss or *LossAbove and is written for the user.
func (o Order) lossRefusal() error {
	l := o.Loss()
	err := AcceptsLoss(l, o.Choice.AcceptedLoss)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrSevereLoss) && o.LossAnswered.Valid && !l.Lost.GreaterThan(o.LossAnswered.Decimal):
		return nil
	case errors.Is(err, ErrSevereLoss):
		return exchange.UserError{Text: "Not signed: most of the amount would go to fees (you would lose " + l.Reckoned() + ", " + l.Percent().String() +
			"% of the amount), and no second yes to this loss was given: nothing was signed or sent; review the withdrawal again and answer its second question, or get a new quote later", Cause: err}
	}
	return exchange.UserError{Text: "Not signed: " + err.Error() + ": nothing was signed or sent; get a new quote later", Cause: err}
}

// lossNeedingYes is the loss of o's quote, and whether o is signed on a
// second yes to it: a severe loss with no share said beforehand
// (Choice.AcceptedLoss), which every face asks again. That yes accepts the
// loss seen, in its amount and no more: a share at the journal's 6 places
// of a percent, rounded up, would let a fresh quote lose up to a
// hundred-millionth of the amount more.
func (o Order) lossNeedingYes() (Loss, bool) {
	l := o.Loss()
	return l, !o.Choice.AcceptedLoss.Valid && l.Severe()
}

// ParseAcceptedLoss reads a percentage of the amount the user accepts
// losing, such as 60 or 60%: above 0, at most 100, written as an amount
// is (plain digits, at most 6 places), never with an exponent or a sign.
func ParseAcceptedLoss(s string) (decimal.Decimal, error) {
	d, err := exchange.ParseCap("the percentage", strings.TrimSuffix(strings.TrimSpace(s), "%"))
	switch {
	case err != nil:
		// How it is written, said: 0.0000001 and +60 are within the range.
		return decimal.Zero, err
	case !d.IsPositive() || d.GreaterThan(hundred):
		return decimal.Zero, errors.New("give a percentage of the amount above 0 and at most 100, such as 60")
	}
	return d, nil
}
