package plain

import (
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// A withdrawal that is mostly fee, as the console and the command line
// take it: the review warns of a loss above withdrawal.LossWarnShare of
// the amount, and a loss withdrawal.AcceptsLoss does not let through
// without a second yes is signed only once "yes" is typed to a second,
// separate question.

// lossWords says what o's quote takes: "1.5 USDT (75%) of 2 USDT".
func lossWords(o withdrawal.Order) string {
	l, in := withdrawal.QuoteLoss(o.Quote), o.Choice.TokenIn
	return fmt.Sprintf("%s %s (%s%%) of %s %s", l.Lost, in, l.Percent(), l.Paid, in)
}

// warnLoss warns of a loss above withdrawal.LossWarnShare of the amount,
// and says when a second confirmation will be asked; nothing for a
// smaller one.
func (s *session) warnLoss(o withdrawal.Order) {
	l := withdrawal.QuoteLoss(o.Quote)
	switch {
	case l.Severe():
		s.p.Say("Warning: most of this withdrawal goes to fees: you lose %s. A second question asks you to confirm it.", lossWords(o))
	case l.High():
		s.p.Say("Warning: more than %s%% of the amount goes to fees: you lose %s.", withdrawal.LossWarnShare.Shift(2), lossWords(o))
	}
}

// lossConfirmed asks the second question when withdrawal.AcceptsLoss
// wants one (no loss was accepted beforehand in plain mode): only "yes"
// typed in full confirms; anything else, an empty line included, does
// not. true when no question is needed.
func (s *session) lossConfirmed(o withdrawal.Order) (bool, error) {
	if !errors.Is(withdrawal.AcceptsLoss(withdrawal.QuoteLoss(o.Quote), decimal.NullDecimal{}), withdrawal.ErrSevereLoss) {
		return true, nil
	}
	return s.p.TypedWord("You lose "+lossWords(o)+" to fees. Type yes to sign anyway, anything else stops:", "yes")
}
