package withdrawal_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// loggedInMeanwhile is the demo key as a device's, during whose wait the
// client was logged in as another account (a login made meanwhile on the
// same client).
type loggedInMeanwhile struct {
	*signer.PrivateKey
	client *exchange.Client
	apiKey string
}

func (loggedInMeanwhile) Awaiting() string { return "the device" }

func (k loggedInMeanwhile) SignTypedData(ctx context.Context, d signer.Domain, m signer.Message) ([65]byte, error) {
	if _, err := k.client.Login(ctx, exchange.APIKey(k.apiKey)); err != nil {
		return [65]byte{}, err
	}
	return k.PrivateKey.SignTypedData(ctx, d, m)
}

// TestSignedForAnotherAccountNotSent: a withdrawal whose Transfer was
// signed from one account's funding account is never sent, nor journaled,
// on a session that is now another account's: the request would go as
// that account's, its intent be journaled and resumed as that account's.
// One whose session changed before the yes is not signed at all.
func TestSignedForAnotherAccountNotSent(t *testing.T) {
	t.Run("before signing", func(t *testing.T) {
		r := newRig(t, 0, false)
		o := r.order(r.choice(sandbox.DestCompleted, "25"))
		if _, err := r.client.Login(context.Background(), exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
			t.Fatal(err)
		}
		loaded := false
		sent := r.withdrawer().Execute(context.Background(), o, func() (signer.Key, error) { loaded = true; return demoKey() })
		if _, ok := errors.AsType[*withdrawal.OtherAccountError](sent.Err); !ok || sent.Signed || loaded {
			t.Fatalf("another account's session: %v (signed %v, key loaded %v), want nothing signed", sent.Err, sent.Signed, loaded)
		}
	})
	r := newRig(t, 0, false)
	o := r.order(r.choice(sandbox.DestCompleted, "25"))
	sent := r.withdrawer().Execute(context.Background(), o, func() (signer.Key, error) {
		k, err := demoKey()
		return loggedInMeanwhile{k.(*signer.PrivateKey), r.client, sandbox.NoChainAPIKey}, err
	})
	if _, ok := errors.AsType[*withdrawal.OtherAccountError](sent.Err); !ok || !sent.Signed {
		t.Fatalf("sent on another account's session: %v (signed %v)", sent.Err, sent.Signed)
	}
	if said := exchange.Explain(sent.Err).Error(); !strings.Contains(said, "Not sent") || !strings.Contains(said, sandbox.NoChainAccountID) {
		t.Fatalf("said %q", said)
	}
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraw requests as another account", n)
	}
	entries, err := r.journal.Entries()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Kind == journal.KindIntent {
			t.Fatalf("an intent journaled as %s's", e.AccountID)
		}
	}
}

// TestSettledOnlyAsItsAccount: an unanswered withdrawal journaled as one
// account is not settled on a session of another (a login made meanwhile
// on the same client): its signed request was re-sent, and its status
// asked, as that account's, whose "not found" could be journaled as never
// paid. Nothing is asked, nothing journaled, and the repeat guard holds;
// on its own account's session it settles.
func TestSettledOnlyAsItsAccount(t *testing.T) {
	r := newRig(t, 0, false)
	o, rec := r.lostWithdrawal()
	r.holding.Store(false)
	if _, err := r.client.Login(context.Background(), exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
		t.Fatal(err)
	}
	requests := 0
	count := func(*http.Request) { requests++ }
	r.before.Store(&count)
	settled := r.withdrawer().Settle(context.Background(), rec)
	if _, ok := errors.AsType[*withdrawal.OtherRecordAccountError](settled.Err); !ok || settled.Outcome != withdrawal.SettledOtherAccount || requests != 0 {
		t.Fatalf("settled on another account's session: %+v, %d requests; want nothing asked, as another account's", settled, requests)
	}
	if said := settled.Err.Error(); !strings.Contains(said, "log in as account "+sandbox.DemoAccountID) || strings.Contains(said, "cannot be told") {
		t.Fatalf("said %q", said)
	}
	r.before.Store(nil)
	if _, err := r.client.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	if got := r.record(rec.QuoteID); got.Answered || !r.guarded(o) {
		t.Fatalf("journal %+v: the record must stay unanswered and the repeat guard hold", got)
	}
	if settled := r.withdrawer().Settle(context.Background(), rec); settled.Outcome != withdrawal.SettledAccepted {
		t.Fatalf("settled on its own account's session: %+v", settled)
	}
}
