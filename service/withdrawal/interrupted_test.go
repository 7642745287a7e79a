package withdrawal_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// stoppedAfterSigning is a key that waits for a person (a device, clef)
// and whose wait ends with a signal (ctrl+c, SIGTERM, a closed terminal's
// SIGHUP) just after it answered: the signal comes between sign and send.
type stoppedAfterSigning struct {
	*signer.PrivateKey
	stop context.CancelFunc
}

func (k stoppedAfterSigning) Awaiting() string { return "the device" }

func (k stoppedAfterSigning) SignTypedData(ctx context.Context, d signer.Domain, m signer.Message) ([65]byte, error) {
	sig, err := signer.Sign(ctx, k.PrivateKey, d, m)
	k.stop()
	var raw [65]byte
	copy(raw[:32], sig.R[:])
	copy(raw[32:64], sig.S[:])
	raw[64] = sig.V
	return raw, err
}

// TestInterruptedBetweenSignAndSend: ctrl+c, SIGTERM or a closed terminal
// after the signature came and before the request left (the key's answer,
// a fresh quote looked for meanwhile) sends nothing and journals no
// intent: the withdrawal was sent all the same, and paid, by a command
// the person had stopped. So does a prepared Transfer's submit stopped
// while its quote is checked again.
func TestInterruptedBetweenSignAndSend(t *testing.T) {
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	sent := r.withdrawer().Execute(ctx, o, func() (signer.Key, error) {
		k, err := demoKey()
		return stoppedAfterSigning{k.(*signer.PrivateKey), stop}, err
	})
	r.wantNothingSent(sent)
	// Signed here and kept nowhere, the signature goes unused.
	wantWords(t, sent.Err, "before the request left: nothing was sent, and the signature expires unused; start the withdrawal again", "submitted again")

	o = r.order(r.choice(sandbox.DestCompleted, "26"))
	p, sig := r.prepared(o, sandbox.DemoPrivateKey)
	ctx, stop = context.WithCancel(context.Background())
	defer stop()
	var times atomic.Int64
	hook := func(req *http.Request) {
		// The first /time is the prepared Transfer's check; the second,
		// Requote's, comes once the signature is taken.
		if req.URL.Path == exchange.PathTime && times.Add(1) == 2 {
			stop()
		}
	}
	r.before.Store(&hook)
	sent = r.withdrawer().Submit(ctx, p, sig)
	r.wantNothingSent(sent)
	// The prepared Transfer's signature is on disk: it may be submitted again.
	wantWords(t, sent.Err, "nothing was sent; the prepared Transfer was not used and may be submitted again until its signature expires at "+
		time.Unix(0, p.Order.Transfer.Expiration).UTC().Format(time.RFC3339), "expires unused")
}

// wantWords: err's words (exchange.Explain) say want and not wrong.
func wantWords(t *testing.T, err error, want, wrong string) {
	t.Helper()
	if said := exchange.Explain(err).Error(); !strings.Contains(said, want) || strings.Contains(said, wrong) {
		t.Errorf("said %q, want %q and no %q", said, want, wrong)
	}
}

func (r *rig) wantNothingSent(sent withdrawal.Sent) {
	r.t.Helper()
	if n := r.withdraws.Load(); n != 0 || !errors.Is(sent.Err, context.Canceled) || !errors.Is(sent.Err, withdrawal.ErrStoppedOnceSigned) {
		r.t.Fatalf("%d withdraw requests after the signal (%v)", n, sent.Err)
	}
	entries, err := r.journal.Entries()
	if err != nil {
		r.t.Fatal(err)
	}
	for _, e := range entries {
		if e.Kind == journal.KindIntent {
			r.t.Fatalf("an intent was journaled after the signal: %s", e.QuoteID)
		}
	}
}

// awaitingKey is the demo key as a device's: Execute may carry its
// signature to a fresh quote.
type awaitingKey struct{ *signer.PrivateKey }

func (awaitingKey) Awaiting() string { return "the device" }

// TestInterruptedWhileRequotingSendsNothingMore: a signal while a signature
// the service refused as expired (nothing paid) is carried to a fresh
// quote sends nothing more, and journals no intent for the fresh quote:
// the check before the first send alone let the second leave, paid, after
// the person had stopped. It is made under the journal's lock, with the
// intent's line.
func TestInterruptedWhileRequotingSendsNothingMore(t *testing.T) {
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	hook := func(req *http.Request) {
		switch {
		case req.URL.Path == exchange.PathWithdraw:
			r.service.Advance(2 * time.Minute) // the quote expires as it is sent
		case r.withdraws.Load() == 1:
			stop() // ctrl+c while the fresh quote is looked for
		}
	}
	r.before.Store(&hook)
	sent := r.withdrawer().Execute(ctx, o, func() (signer.Key, error) {
		k, err := demoKey()
		return awaitingKey{k.(*signer.PrivateKey)}, err
	})
	if n := r.withdraws.Load(); n != 1 || !errors.Is(sent.Err, withdrawal.ErrStoppedOnceSigned) {
		t.Fatalf("%d withdraw requests, the second after the signal (%v)", n, sent.Err)
	}
	// The first request left and was refused: nothing paid, not nothing sent.
	wantWords(t, sent.Err, "after quote "+o.Quote.QuoteID+" was refused as expired and before the request on the fresh quote q-", "nothing was sent")
	wantWords(t, sent.Err, "left: nothing was paid, and the signature expires unused", "nothing was sent")
	entries, err := r.journal.Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Kind == journal.KindIntent && e.QuoteID != o.Quote.QuoteID {
			t.Fatalf("an intent for the fresh quote %s was journaled after the signal", e.QuoteID)
		}
	}
}
