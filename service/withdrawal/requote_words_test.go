package withdrawal_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestRequoteAfterARefusalSaysItLeft: a signature whose first request the
// service refused as expired, and that no fresh quote then carries, is
// said as what happened: the request left and was refused, so nothing was
// paid; "nothing was sent" would hide the request that left.
func TestRequoteAfterARefusalSaysItLeft(t *testing.T) {
	for _, tc := range []struct {
		name string
		// then runs once the first withdraw request was refused.
		then func(r *rig, o withdrawal.Order)
		says string
	}{
		{"no fresh quote", func(r *rig, _ withdrawal.Order) { r.quote429.Store(exchange.PatientTries) },
			"as expired, and a fresh one could not be had: "},
		{"the signature expired", func(r *rig, o withdrawal.Order) { r.service.Set(time.Unix(0, o.Transfer.Expiration)) },
			") before it could be sent on a fresh quote after quote "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, 0, false)
			o := r.order(r.choice(sandbox.DestCompleted, "25"))
			var once sync.Once
			hook := func(req *http.Request) {
				switch {
				case req.URL.Path == exchange.PathWithdraw && r.withdraws.Load() == 0:
					r.service.Advance(2 * time.Minute) // the quote expires as it is sent
				case r.withdraws.Load() == 1: // the refusal came
					once.Do(func() { tc.then(r, o) })
				}
			}
			r.before.Store(&hook)
			sent := r.withdrawer().Execute(context.Background(), o, func() (signer.Key, error) {
				k, err := demoKey()
				return awaitingKey{k.(*signer.PrivateKey)}, err
			})
			if n := r.withdraws.Load(); n != 1 || sent.Err == nil || sent.Lost != nil || errors.Is(sent.Err, exchange.ErrQuoteExpired) || !sent.Signed {
				t.Fatalf("%d withdraw requests (%v), want the first one refused, none on a fresh quote, and it said signed", n, sent.Err)
			}
			wantWords(t, sent.Err, tc.says, "nothing was sent")
			wantWords(t, sent.Err, "quote "+o.Quote.QuoteID+" ", "nothing was sent")
			wantWords(t, sent.Err, "nothing was paid", "nothing was sent")
		})
	}
}

// TestAwaitedSignatureUncarriedIsSigned: a signature awaited past its
// quote that no fresh quote then carries left nothing, but it was made:
// Sent.Signed, so plain mode's last words do not say nothing was signed.
func TestAwaitedSignatureUncarriedIsSigned(t *testing.T) {
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	sent := r.withdrawer().Execute(context.Background(), o, func() (signer.Key, error) {
		r.service.Advance(2 * time.Minute) // the quote expires while the device waits
		r.quote429.Store(exchange.PatientTries)
		k, err := demoKey()
		return awaitingKey{k.(*signer.PrivateKey)}, err
	})
	if n := r.withdraws.Load(); n != 0 || sent.Err == nil || !sent.Signed {
		t.Fatalf("%d withdraw requests, signed %v (%v); want none sent, and it said signed", n, sent.Signed, sent.Err)
	}
	wantWords(t, sent.Err, "The quote expired while the signature was awaited, and a fresh one could not be had: ", "nothing was paid")
}

// TestUncarriedAfterAnUnrecordedRefusalSaysIt: a first request refused as
// expired whose refusal the journal could not record, and that no fresh
// quote then carries, still says the refusal is unrecorded (the journal
// shows the withdrawal unanswered, refusing an identical one): the failed
// re-quote dropped it.
func TestUncarriedAfterAnUnrecordedRefusalSaysIt(t *testing.T) {
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	hook := func(req *http.Request) {
		if req.URL.Path == exchange.PathWithdraw && r.withdraws.Load() == 0 {
			r.service.Advance(2 * time.Minute) // the quote expires as it is sent
			r.quote429.Store(exchange.PatientTries)
			if err := makeReadOnly(t, r.journal.Path()); err != nil { // its intent is in; its refusal will not be
				t.Error(err)
			}
		}
	}
	r.before.Store(&hook)
	sent := r.withdrawer().Execute(context.Background(), o, func() (signer.Key, error) {
		k, err := demoKey()
		return awaitingKey{k.(*signer.PrivateKey)}, err
	})
	if n := r.withdraws.Load(); n != 1 || sent.Err == nil || sent.Lost != nil {
		t.Fatalf("%d withdraw requests (%v), want the first one refused and none on a fresh quote", n, sent.Err)
	}
	if sent.Unrecorded == nil || sent.Unrecorded.Journal == nil || sent.Unrecorded.QuoteID != o.Quote.QuoteID {
		t.Fatalf("the unrecorded refusal of %s is not said: %+v (%v)", o.Quote.QuoteID, sent.Unrecorded, sent.Err)
	}
}
