package withdrawal_test

import (
	"context"
	"errors"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// countedKey is demoKey, counting the loads: a load is a signature.
func countedKey(n *int) func() (signer.Key, error) {
	return func() (signer.Key, error) { *n++; return demoKey() }
}

// TestQuoteIDGivenAgainSignsNothing: a service that gives a quote id the
// journal holds (a fault, or a hostile one) gets no signature: the journal
// folds a quote id's lines into one record and keeps none after its
// acceptance, so the second withdrawal, signed and sent, was followed by
// nobody: History and resume showed the first, and the repeat check found
// no unanswered one when its answer was lost. The order is refused before
// anything is signed, for other money under any state, or for the same
// order once the service accepted it; the same quote signed again after a
// refusal goes on.
func TestQuoteIDGivenAgainSignsNothing(t *testing.T) {
	refusedAs := func(t *testing.T, sent withdrawal.Sent, loads int, r *rig, withdraws int64) {
		t.Helper()
		if _, ok := errors.AsType[*withdrawal.QuoteIDUsedError](sent.Err); !ok {
			t.Fatalf("sent: %v (lost %v); want the quote id refused", sent.Err, sent.Lost != nil)
		}
		if loads != 0 || r.withdraws.Load() != withdraws || sent.Lost != nil {
			t.Fatalf("%d signatures and %d withdraw requests (want 0 and %d)", loads, r.withdraws.Load(), withdraws)
		}
	}
	t.Run("accepted, then other money", func(t *testing.T) {
		r := newRig(t, 0, false)
		w := r.withdrawer()
		first := r.order(r.choice(sandbox.DestCompleted, "25"))
		if sent := w.Execute(context.Background(), first, demoKey); sent.Err != nil {
			t.Fatal(sent.Err)
		}
		again := r.order(r.choice(sandbox.DestCompleted, "30"))
		again.Quote.QuoteID = first.Quote.QuoteID
		loads := 0
		refusedAs(t, w.Execute(context.Background(), again, countedKey(&loads)), loads, r, 1)
	})
	t.Run("accepted, then the same order", func(t *testing.T) {
		r := newRig(t, 0, false)
		w := r.withdrawer()
		first := r.order(r.choice(sandbox.DestCompleted, "25"))
		if sent := w.Execute(context.Background(), first, demoKey); sent.Err != nil {
			t.Fatal(sent.Err)
		}
		loads := 0
		refusedAs(t, w.Execute(context.Background(), first, countedKey(&loads)), loads, r, 1)
	})
	t.Run("refused, then other money", func(t *testing.T) {
		r := newRig(t, 0, false)
		w := r.withdrawer()
		first := r.order(r.choice(sandbox.DestFlagged, "25"))
		if sent := w.Execute(context.Background(), first, demoKey); sent.Err == nil || sent.Lost != nil {
			t.Fatalf("the screened destination: %v (lost %v); want a refusal", sent.Err, sent.Lost != nil)
		}
		again := r.order(r.choice(sandbox.DestCompleted, "25"))
		again.Quote.QuoteID = first.Quote.QuoteID
		loads := 0
		refusedAs(t, w.Execute(context.Background(), again, countedKey(&loads)), loads, r, 1)
		// The refused order itself may be signed again.
		if sent := w.Execute(context.Background(), first, countedKey(&loads)); loads != 1 || r.withdraws.Load() != 2 {
			t.Fatalf("the refused order signed again: %v, %d signatures, %d requests", sent.Err, loads, r.withdraws.Load())
		}
	})
	t.Run("given meanwhile", func(t *testing.T) {
		// Another run sent a withdrawal under the same id while this one
		// awaited its signature: the check under the journal's lock finds it.
		r := newRig(t, 0, false)
		w := r.withdrawer()
		first := r.order(r.choice(sandbox.DestCompleted, "25"))
		again := r.order(r.choice(sandbox.DestCompleted, "30"))
		again.Quote.QuoteID = first.Quote.QuoteID
		loads := 0
		meanwhile := func() (signer.Key, error) {
			if sent := r.withdrawer().Execute(context.Background(), first, demoKey); sent.Err != nil {
				t.Fatal(sent.Err)
			}
			return countedKey(&loads)()
		}
		sent := w.Execute(context.Background(), again, meanwhile)
		if _, ok := errors.AsType[*withdrawal.QuoteIDUsedError](sent.Err); !ok || r.withdraws.Load() != 1 {
			t.Fatalf("sent: %v with %d withdraw requests; want the quote id refused and only the first sent", sent.Err, r.withdraws.Load())
		}
	})
}
