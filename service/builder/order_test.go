package builder_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestBuilderOrderAuthorize: the one builder workflow signs exactly the
// order's message with the main account's key and sends it; another key is
// refused before anything is signed or sent.
func TestBuilderOrderAuthorize(t *testing.T) {
	w := loopback.NewWorld(t, sandbox.Options{})
	rec := &loopback.Recorder{}
	c := w.Client(exchange.Options{HTTPClient: rec.HTTPClient()})
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	o := builder.NewOrder(a, w.Env.Domain(), 42, w.Clock.Now())
	keyOf := func(hex string) func() (signer.Key, error) {
		return func() (signer.Key, error) { return loopback.MustKey(t, hex), nil }
	}
	_, _, err = o.Authorize(context.Background(), c, nil, keyOf(sandbox.BuilderPrivateKey))
	if err == nil || !strings.Contains(err.Error(), "only the main account's key can authorize a builder") || rec.Count(exchange.PathBuilderAuthorize) != 0 {
		t.Fatalf("another key: %v, %d sent", err, rec.Count(exchange.PathBuilderAuthorize))
	}
	req, _, err := o.Authorize(context.Background(), c, nil, keyOf(sandbox.DemoPrivateKey))
	if err != nil || rec.Count(exchange.PathBuilderAuthorize) != 1 {
		t.Fatalf("main key: %v", err)
	}
	nonce, exp := o.Message.NonceExpiration()
	if req.Signature.Nonce != nonce || req.Signature.Expiration != strconv.FormatInt(exp, 10) {
		t.Fatalf("signed %+v, want the order's nonce %d and expiration %d", req.Signature, nonce, exp)
	}
	// The same nonce again is a duplicate: refused for good.
	if _, _, err := o.Authorize(context.Background(), c, nil, keyOf(sandbox.DemoPrivateKey)); a.Failed(err, 0).Fate != builder.FateRefused {
		t.Fatalf("a replayed nonce: %v, want a refusal for good", err)
	}
}
