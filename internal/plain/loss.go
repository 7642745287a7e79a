package plain

import (
	"errors"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// A withdrawal that is mostly fee, as the console and the command line
// take it: the review warns of a loss above withdrawal.LossWarnShare of
// the amount, and a loss withdrawal.AcceptsLoss does not let through
// without a second yes is signed only once "yes" is typed to a second,
// separate question.

// warnLoss warns of a loss above withdrawal.LossWarnShare of the amount
// (withdrawal.Loss.Warning), and says when a second confirmation will be
// asked; nothing for a smaller one.
func (s *session) warnLoss(o withdrawal.Order) {
	l := o.Loss()
	switch w := l.Warning(); {
	case l.Severe():
		s.p.Say("Warning: %s. A second question asks you to confirm it.", w)
	case w != "":
		s.p.Say("Warning: %s.", w)
	}
}

// lossConfirmed asks the second question when withdrawal.AcceptsLoss
// wants one (no loss was accepted beforehand in plain mode): only "yes"
// typed in full confirms; anything else, an empty line included, does
// not; its yes is o's (Order.AnswerLoss). true when no question is needed.
func (s *session) lossConfirmed(o *withdrawal.Order) (bool, error) {
	l := o.Loss()
	if !errors.Is(withdrawal.AcceptsLoss(l, decimal.NullDecimal{}), withdrawal.ErrSevereLoss) {
		return true, nil
	}
	yes, err := s.secondYes(l.Question())
	if yes {
		o.AnswerLoss()
	}
	return yes, err
}

// secondYes asks a second question that signs (a severe loss, a key that
// may move funds) in plain mode's one way: only "yes" typed in full
// answers it, where the first question takes y.
func (s *session) secondYes(question string) (bool, error) {
	return s.p.TypedWord(question+" Type yes if so, anything else stops:", "yes")
}
