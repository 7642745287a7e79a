package builder_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestBuilderChecksAgreeWithSandbox: the sandbox judges an authorization
// with its own code, written from the spec: what the builder's checks let
// through it must take, and what they stop it must refuse when it is sent
// by hand. A check that drifts from the spec (a 5-decimal fee rate, a
// permission read another way) fails here.
func TestBuilderChecksAgreeWithSandbox(t *testing.T) {
	w := loopback.NewWorld(t, sandbox.Options{})
	c := w.Client(exchange.Options{})
	demo := loopback.MustKey(t, sandbox.DemoPrivateKey)
	plain := builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"}
	withKey := plain
	withKey.Label, withKey.KeySigner, withKey.Permissions = "bot", loopback.MustKey(t, sandbox.NoChainPrivateKey).Address().Hex(), "Trade"
	nonce, exp := uint32(0), w.Clock.Now().Add(time.Hour).UnixNano()
	// send signs a as the client does and posts its request, first changed
	// by edit to carry raw text where the client would send its own.
	send := func(a builder.Auth, edit func(*exchange.BuilderAuthorizeRequest)) error {
		nonce++
		sig, err := signer.Sign(context.Background(), demo, w.Env.Domain(), a.Message(nonce, exp))
		if err != nil {
			t.Fatal(err)
		}
		req := a.Request(sig)
		if edit != nil {
			edit(&req)
		}
		_, err = c.AuthorizeBuilder(context.Background(), req)
		return err
	}
	check := func(in builder.Input) (builder.Auth, error) {
		a, err := builder.Check(in)
		if err == nil {
			if err := send(a, nil); err != nil {
				t.Errorf("%+v: the client's own request was refused: %v", in, err)
			}
		}
		return a, err
	}
	base, err := builder.Check(withKey)
	if err != nil {
		t.Fatal(err)
	}

	// A fee rate the client reads as v, sent as typed and signed as v, must
	// be taken: same text, same × 10,000. One it refuses must be refused.
	for _, fee := range []string{"0.1", "0.0005", "007.50", "0.00001", "-0.1", "429496.7295", "429496.7296", "1e-3", ".1", "0.1.2"} {
		in := plain
		in.FuturesFee = fee
		a, cerr := check(in)
		if cerr != nil {
			a = base
		}
		err := send(a, func(r *exchange.BuilderAuthorizeRequest) { r.MaxFuturesFeeRate = fee })
		switch {
		case cerr == nil && err != nil:
			t.Errorf("fee %q: the client signs it as %d, the sandbox refused that: %v", fee, a.Futures, err)
		case cerr != nil && !errors.Is(err, exchange.CodeBadFeeRate) && !errors.Is(err, exchange.CodeBuilderFeeNegative) && !errors.Is(err, exchange.CodeBuilderFeeOverLimit):
			t.Errorf("fee %q: the client refused it (%v), the sandbox answered %v", fee, cerr, err)
		}
	}

	// The client reads permissions in any order and case and sends them
	// canonical (D5). The sandbox takes only the canonical text but names it
	// for any readable one: the client must read exactly those, the same way.
	for _, perms := range []string{"Trade", "trade&admin", "Withdraw, ExternalTransfer", "Trade&Trade", "Fly", "InternalTranſfer",
		"Admin&InternalTransfer&ExternalTransfer&Withdraw&VaultInvestor&Trade", "&"} {
		in := withKey
		in.Permissions = perms
		a, cerr := check(in)
		err := send(base, func(r *exchange.BuilderAuthorizeRequest) { r.BuilderAPIKeyPermissions = perms })
		canonical, readable := perms, !errors.Is(err, exchange.CodeBadPermissions)
		var ae *exchange.APIError
		if !readable && errors.As(err, &ae) {
			if _, named, ok := strings.Cut(ae.Message, "; send "); ok {
				canonical, err = strconv.Unquote(named)
				readable = err == nil
			}
		}
		switch {
		case cerr == nil && (!readable || a.Perms.String() != canonical):
			t.Errorf("permissions %q: the client sends %q, the sandbox reads %q (readable: %v)", perms, a.Perms.String(), canonical, readable)
		case cerr != nil && readable:
			t.Errorf("permissions %q: the client refused them (%v), the sandbox reads %q", perms, cerr, canonical)
		}
	}
}
