package withdrawal_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

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
	r.wantNothingSent(r.withdrawer().Submit(ctx, p, sig))
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
