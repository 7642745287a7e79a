package withdraw

import (
	"errors"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// A withdrawal that is mostly fee (withdrawal.AcceptsLoss) is signed, or
// prepared for offline signing, only after a second yes: enter asks, and a
// typed y answers.

var lossKeys = struct{ Yes, No key.Binding }{
	Yes: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes, all the same")),
	No:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "no")),
}

// lossWords warns of a loss above withdrawal.LossWarnShare of the amount
// (withdrawal.Loss.Warning), as a sentence; "" for a smaller one.
func lossWords(o withdrawal.Order) string {
	if w := o.Loss().Warning(); w != "" {
		return w + "."
	}
	return ""
}

// lossQuestion is the second question in the service's words
// (withdrawal.Loss.Question), under the warning (lossWords) where the
// review has lines for it; from level 3 on one line, briefly where the
// whole does not fit (the figures above say the loss).
func (r *reviewScreen) lossQuestion(level int) string {
	l := r.order.Loss()
	if level <= 2 {
		return r.loss.Words(l.Question())
	}
	return layout.Fitting(r.wd, r.loss.Words(l.Question()), r.loss.Words(l.QuestionBrief()))
}

// askingLoss wraps act (signing, or preparing the Transfer): a loss that
// needs a second yes asks for it first (kit.SecondQuestion).
func (r *reviewScreen) askingLoss(act func() tea.Cmd) func() tea.Cmd {
	return r.loss.Asking(&r.gate, func() bool {
		return errors.Is(withdrawal.AcceptsLoss(r.order.Loss(), decimal.NullDecimal{}), withdrawal.ErrSevereLoss)
	}, act)
}

// askedLoss: the second yes is asked for now.
func (r *reviewScreen) askedLoss() bool {
	return r.loss.Pending() && !r.gate.Sending && !r.expired()
}

// lossBindings answer the question; its yes is the order's
// (withdrawal.Order.AnswerLoss), which signing and preparing hold to.
func (r *reviewScreen) lossBindings(seen bool) kit.Bindings {
	return r.loss.Bindings(r.askedLoss(), seen, lossKeys.Yes, lossKeys.No, r.order.AnswerLoss)
}
