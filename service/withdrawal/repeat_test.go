package withdrawal_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// barrierKey is the demo key, whose signatures wait until n of them were
// asked for: runs that each await their signature, at once.
type barrierKey struct {
	signer.Key
	arrived *sync.WaitGroup
}

func (k barrierKey) SignTypedData(ctx context.Context, d signer.Domain, m signer.Message) ([65]byte, error) {
	k.arrived.Done()
	k.arrived.Wait()
	return k.Key.SignTypedData(ctx, d, m)
}

// TestConcurrentRunsSendOnce: two runs of the same withdrawal (a cron
// overlap, a console and a script), each with its own quote, both pass
// the early repeat check and both sign, their signer waiting until both
// asked: only one is sent and debited; the other is refused before it
// sends (*OvertakenError), with its intent never journaled.
func TestConcurrentRunsSendOnce(t *testing.T) {
	r := newRig(t, 0, false)
	start := r.ex.Balance(sandbox.DemoAccountID)
	c := r.choice(sandbox.DestCompleted, "25")
	orders := []withdrawal.Order{r.order(c), r.order(c)}
	var arrived sync.WaitGroup
	arrived.Add(len(orders))
	load := func() (signer.Key, error) {
		k, err := demoKey()
		return barrierKey{Key: k, arrived: &arrived}, err
	}
	sent := make([]withdrawal.Sent, len(orders))
	var runs sync.WaitGroup
	for i, o := range orders {
		runs.Go(func() { sent[i] = r.withdrawer().Execute(context.Background(), o, load) })
	}
	runs.Wait()
	var ok, overtaken int
	for _, s := range sent {
		var ot *withdrawal.OvertakenError
		switch {
		case s.Err == nil:
			ok++
		case errors.As(s.Err, &ot) || withdrawal.AsUnanswered(s.Err) != nil:
			overtaken++
		default:
			t.Errorf("a run failed otherwise: %v", s.Err)
		}
	}
	if ok != 1 || overtaken != 1 || r.withdraws.Load() != 1 {
		t.Fatalf("%d sent, %d refused, %d withdraw requests; want one of each and one request", ok, overtaken, r.withdraws.Load())
	}
	if got := r.ex.Balance(sandbox.DemoAccountID); !got.Equal(start.Sub(orders[0].Quote.PayAmount)) {
		t.Errorf("balance %s from %s: want one debit", got, start)
	}
	recs, err := r.journal.Records()
	if err != nil || len(recs) != 1 {
		t.Errorf("journal %+v (%v): want the one withdrawal sent", recs, err)
	}
	// One run alone, later, is not refused: the first is known to it.
	if s := r.withdrawer().Execute(context.Background(), r.order(c), demoKey); s.Err != nil {
		t.Errorf("a later identical withdrawal, warned about at its review: %v", s.Err)
	}
}

// TestConcurrentSubmitsSendOnce: one prepared Transfer submitted twice at
// once (its signature pasted in two terminals): both pass the early
// checks and ask for their fresh quote together; one is sent, the other
// is refused as submitted already.
func TestConcurrentSubmitsSendOnce(t *testing.T) {
	r := newRig(t, 0, false)
	start := r.ex.Balance(sandbox.DemoAccountID)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	w := r.withdrawer()
	k, _ := demoKey()
	p, err := w.Prepare(context.Background(), o, k.Address())
	if err != nil {
		t.Fatal(err)
	}
	sig, err := k.SignTypedData(context.Background(), p.Order.Domain, p.Order.Transfer)
	if err != nil {
		t.Fatal(err)
	}
	var quotes sync.WaitGroup
	quotes.Add(2)
	hold := func(req *http.Request) {
		if req.URL.Path == exchange.PathWithdrawalQuote {
			quotes.Done()
			quotes.Wait()
		}
	}
	r.before.Store(&hold)
	r.advance(time.Minute)
	sent := make([]withdrawal.Sent, 2)
	var runs sync.WaitGroup
	for i := range sent {
		runs.Go(func() { sent[i] = r.withdrawer().Submit(context.Background(), p, sig) })
	}
	runs.Wait()
	var ok, again int
	for _, s := range sent {
		var done *intent.SubmittedError
		switch {
		case s.Err == nil:
			ok++
		case errors.As(s.Err, &done):
			again++
		default:
			t.Errorf("a submission failed otherwise: %v", s.Err)
		}
	}
	if ok != 1 || again != 1 || r.withdraws.Load() != 1 {
		t.Fatalf("%d sent, %d refused as submitted, %d withdraw requests; want one of each and one request", ok, again, r.withdraws.Load())
	}
	if got := r.ex.Balance(sandbox.DemoAccountID); !got.Equal(start.Sub(o.Quote.PayAmount)) {
		t.Errorf("balance %s from %s: want one debit", got, start)
	}
}
