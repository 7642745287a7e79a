package exchange_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/internal/builder"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/sandbox"
	"github.com/svcwallet/svcwallet/internal/signer"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
)

// The sandbox judges requests with its own code, written from the spec, not
// with the client's validators. So it can tell the client wrong: what the
// client's checks let through, the sandbox must take, and what they stop,
// the sandbox must refuse when it is sent by hand. A client check that
// drifts from the spec (a 31-byte Solana key let through, a 7-decimal
// amount, a 5-decimal fee rate) makes these tests fail.

// base58Of encodes n bytes as a Solana-style key.
func base58Of(n int) string { return base58.Encode(bytes.Repeat([]byte{9}, n)) }

// tronOf is base58check(version ‖ 20 bytes).
func tronOf(version byte) string {
	payload := append([]byte{version}, bytes.Repeat([]byte{7}, 20)...)
	once := sha256.Sum256(payload)
	twice := sha256.Sum256(once[:])
	return base58.Encode(append(payload, twice[:4]...))
}

func TestDestinationChecksAgreeWithSandbox(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	info, err := c.WithdrawalInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type try struct{ chain, to, amount string }
	var tries []try
	for chain, addresses := range map[string][]string{
		"SOLANA": {sandbox.DestSolana, base58Of(31), base58Of(32), strings.Repeat("1", 33), "0" + base58Of(32)[1:], sandbox.DestTron},
		"TRON":   {sandbox.DestTron, tronOf(0x41), tronOf(0x00), sandbox.DestTron[:33] + "a", base58Of(32), sandbox.DestCompleted},
		"BASE": {sandbox.DestCompleted, strings.ToLower(sandbox.DestCompleted), "0x" + strings.ToUpper(sandbox.DestCompleted[2:]),
			"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc", sandbox.DestCompleted[:41], "0X" + sandbox.DestCompleted[2:], sandbox.DestSolana},
	} {
		for _, to := range addresses {
			tries = append(tries, try{chain, to, "10"})
		}
	}
	for _, amount := range []string{"10", "10.123456", "10.1234567", "0", "0.000000", "0.5", "1e3", ".5", "5.", "-5", "1,000", "123456789012", "1234567890123"} {
		tries = append(tries, try{"BASE", sandbox.DestCompleted, amount})
	}
	// A refusal of the input itself, not of the account's limits or book.
	badInput := func(err error) bool {
		return errors.Is(err, exchange.CodeBadAddress) || errors.Is(err, exchange.CodeMalformed)
	}
	passed := 0
	for _, tr := range tries {
		var route exchange.WithdrawalRoute
		for _, r := range info.Route[exchange.TokenUSDT] {
			if r.Chain == tr.chain {
				route = r
			}
		}
		choice := withdrawal.Choice{Info: info, TokenIn: exchange.TokenUSDT, Route: route, TokenOut: exchange.TokenUSDT}
		checked, cerr := choice.CheckDestination(tr.to, tr.amount, "")
		if cerr == nil {
			if _, err := c.Quote(ctx, checked.QuoteRequest()); badInput(err) {
				t.Errorf("%s %q, amount %q: the client let it through, the sandbox refused it: %v", tr.chain, tr.to, tr.amount, err)
			}
			passed++
			continue
		}
		if _, err := w.Quote(c, tr.to, tr.chain, tr.amount); !badInput(err) {
			t.Errorf("%s %q, amount %q: the client refused it (%v), the sandbox took it: %v", tr.chain, tr.to, tr.amount, cerr, err)
		}
	}
	if passed == 0 || passed == len(tries) {
		t.Fatalf("the client passed %d of %d tries: the corpus must hold good and bad ones", passed, len(tries))
	}
}

func TestBuilderChecksAgreeWithSandbox(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Client(exchange.Options{})
	demo := mustKey(t, sandbox.DemoPrivateKey)
	plain := builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"}
	withKey := plain
	withKey.Label, withKey.KeySigner, withKey.Permissions = "bot", mustKey(t, sandbox.NoChainPrivateKey).Address().Hex(), "Trade"
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
		_, err = c.AuthorizeBuilder(ctx, req)
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
