package withdrawal_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// restoredAfterSubmit prepares a Transfer, submits it (paid), then puts
// back the journal and its record of what was written as a backup taken
// between prepare and submit had them: the journal no longer holds the
// submission. It returns the prepared Transfer found again, and its
// signature.
func (r *rig) restoredAfterSubmit() (withdrawal.Prepared, [65]byte) {
	r.t.Helper()
	p, sig := r.prepared(r.order(r.choice(sandbox.DestCompleted, "25")), sandbox.DemoPrivateKey)
	backup := map[string][]byte{}
	for _, path := range []string{r.journal.Path(), journal.WrittenPath(r.journal.Path())} {
		b, err := os.ReadFile(path)
		if err != nil {
			r.t.Fatal(err)
		}
		backup[path] = b
	}
	if sent := r.withdrawer().Submit(context.Background(), p, sig); sent.Err != nil {
		r.t.Fatalf("first submit: %v", sent.Err)
	}
	for path, b := range backup {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			r.t.Fatal(err)
		}
	}
	found, err := r.find(p.File())
	if err != nil {
		r.t.Fatalf("after the restore the file is not found: %v", err)
	}
	return found, sig
}

// wantMostLikelyPaid checks words said of a Transfer whose nonce the
// service found used: most likely paid, never "sign again".
func wantMostLikelyPaid(t *testing.T, where, said string) {
	t.Helper()
	if strings.Contains(said, "sign again") || !strings.Contains(said, "most likely sent and paid before") || !strings.Contains(said, "never sign it again") {
		t.Errorf("%s: %q, want it said most likely paid already, never to sign again", where, said)
	}
}

// TestSubmitAfterARestoreSaysMostLikelyPaid: a prepared Transfer submitted
// (paid), its state folder then restored from a backup taken before, is
// submitted again: the service refuses its used nonce (4007), which says
// this Transfer was most likely paid, on every face (the error's head and
// words, and the journal's line History shows), never "sign again", which
// pays twice.
func TestSubmitAfterARestoreSaysMostLikelyPaid(t *testing.T) {
	r := newRig(t, 0, false)
	p, sig := r.restoredAfterSubmit()
	sent := r.withdrawer().Submit(context.Background(), p, sig)
	if !withdrawal.NonceUsed(sent.Err) || sent.Lost != nil {
		t.Fatalf("submitted again: %+v, want the service's refusal of its used nonce", sent)
	}
	if head, _ := exchange.Labelled("Not withdrawn", sent.Err); head != withdrawal.PaidAlreadyHead {
		t.Errorf("a face says %q: %v", head, sent.Err)
	}
	wantMostLikelyPaid(t, "said", exchange.Explain(sent.Err).Error())
	rec, err := r.journal.RecordsOf(journal.SessionOwner(r.client), sent.Order.Quote.QuoteID)
	if err != nil || len(rec) != 1 || !rec[0].Answered {
		t.Fatalf("the refused fresh quote's record: %+v %v", rec, err)
	}
	wantMostLikelyPaid(t, "journaled", rec[0].Error)
	if bal := r.ex.Balance(sandbox.DemoAccountID); bal.String() != "9975" {
		t.Errorf("balance %s, want 9975: paid once", bal)
	}
}

// TestResumeOfANonceUsedSaysMostLikelyPaid: the restored Transfer's second
// submit gets no answer, and a retry is refused 4007: the client makes it
// an unknown outcome (resumed, never a refusal). Its resume re-sends it,
// refused 4007 again, which does not decide (its quote may still execute):
// what it says of the refusal is most likely paid already.
func TestResumeOfANonceUsedSaysMostLikelyPaid(t *testing.T) {
	r := newRig(t, 0, false)
	p, sig := r.restoredAfterSubmit()
	r.holding.Store(true)
	sent := r.withdrawer().Submit(context.Background(), p, sig)
	if sent.Lost == nil || withdrawal.NonceUsed(sent.Err) {
		t.Fatalf("submitted with no answer: %+v, want it lost", sent)
	}
	r.holding.Store(false)
	settled := r.withdrawer().Settle(context.Background(), *sent.Lost)
	if settled.Outcome != withdrawal.SettledUndecided {
		t.Fatalf("settled %+v while its quote may execute, want undecided", settled)
	}
	wantMostLikelyPaid(t, "the re-send's refusal", settled.Fact())
}
