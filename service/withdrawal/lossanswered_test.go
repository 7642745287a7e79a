package withdrawal_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestUnansweredLossNeitherSignedNorPrepared: a withdrawal losing most of
// the amount that no face recorded a second yes to (Order.AnswerLoss) is
// refused by Execute and Prepare themselves (ErrSevereLoss), before a key
// is loaded or a request made; so is one whose yes was to a smaller loss
// (a quote swapped after the answer), and one above the share said
// beforehand. Answered, it goes on to the key and is prepared.
func TestUnansweredLossNeitherSignedNorPrepared(t *testing.T) {
	r := newRig(t, 0, false)
	d := decimal.RequireFromString
	var requests, loaded atomic.Int64
	count := func(*http.Request) { requests.Add(1) }
	r.before.Store(&count)
	load := func() (signer.Key, error) { loaded.Add(1); return demoKey() }
	o := r.order(r.choice(sandbox.DestCompleted, "1000"))
	o.Quote.ReceiveAmount, o.Quote.Fee = d("333.333333"), d("666.666667")
	w := r.withdrawer()
	refused := func(what string, o withdrawal.Order, want func(error) bool) {
		t.Helper()
		requests.Store(0)
		if sent := w.Execute(context.Background(), o, load); !want(sent.Err) || sent.Signed || loaded.Load() != 0 || requests.Load() != 0 {
			t.Errorf("%s: executed: %v, signed %v, key loaded %d, %d requests", what, sent.Err, sent.Signed, loaded.Load(), requests.Load())
		}
		if _, err := w.Prepare(context.Background(), o, o.Transfer.FromAccount); !want(err) || requests.Load() != 0 {
			t.Errorf("%s: prepared: %v, %d requests", what, err, requests.Load())
		}
	}
	severe := func(err error) bool { return errors.Is(err, withdrawal.ErrSevereLoss) }
	refused("unanswered", o, severe)

	more := o
	more.AnswerLoss()
	more.Quote.ReceiveAmount, more.Quote.Fee = d("333.33333"), d("666.66667")
	refused("answered, then a quote losing a unit more", more, severe)

	above := o
	above.AnswerLoss()
	above.Choice.AcceptedLoss = decimal.NewNullDecimal(d("60"))
	refused("answered, 60% accepted beforehand", above, func(err error) bool { return errors.As(err, new(*withdrawal.LossAbove)) })

	o.AnswerLoss()
	if sent := w.Execute(context.Background(), o, load); severe(sent.Err) || loaded.Load() != 1 {
		t.Errorf("answered: %v, key loaded %d", sent.Err, loaded.Load())
	}
	p := r.order(r.choice(sandbox.DestCompleted, "1000"))
	p.Quote.ReceiveAmount, p.Quote.Fee = o.Quote.ReceiveAmount, o.Quote.Fee
	p.AnswerLoss()
	if _, err := w.Prepare(context.Background(), p, p.Transfer.FromAccount); err != nil {
		t.Errorf("answered, prepared: %v", err)
	}
}
