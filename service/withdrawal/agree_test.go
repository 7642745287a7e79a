package withdrawal_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
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
	info, err := c.WithdrawalInfo(context.Background())
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
			if _, err := c.Quote(context.Background(), checked.QuoteRequest()); badInput(err) {
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
