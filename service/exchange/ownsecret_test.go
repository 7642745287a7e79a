package exchange_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestOwnSecretNeverSentAsQuoteID: the client's own credentials, its API
// key (logged in with, or the deposit key it was given) and its session
// cookie, typed as a quote id, alone or inside one, are refused before any
// status request and never repeated: sent, the key left in a URL and a
// not-found said it back. An honest id is asked.
func TestOwnSecretNeverSentAsQuoteID(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	var asked atomic.Int32
	h.set(func(p string, body []byte) []byte {
		if p == exchange.PathWithdrawalStatus {
			asked.Add(1)
		}
		return body
	})
	c := w.Client(exchange.Options{APIKey: "deposit-key-9"})
	if _, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	kept, _ := c.Kept()
	for _, id := range []string{sandbox.DemoAPIKey, "deposit-key-9", kept.Cookie, "q-" + sandbox.DemoAPIKey + "-1"} {
		_, err := c.WithdrawalStatus(ctx, id)
		if !errors.Is(err, exchange.ErrOwnSecret) || strings.Contains(err.Error(), id) {
			t.Errorf("a credential as a quote id: %v; want ErrOwnSecret, not repeated", err)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("%d status requests sent with a credential as the quote id", n)
	}
	if _, err := c.WithdrawalStatus(ctx, "q-1"); !errors.Is(err, exchange.ErrNotFound) || asked.Load() != 1 {
		t.Fatalf("an honest id: %v after %d requests; want it asked, not found", err, asked.Load())
	}
}
