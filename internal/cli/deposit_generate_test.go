package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// deposit generate is held to the listing it reads first
// (exchange.Client.GenerateFor), as the console and plain mode are.

// TestDepositGenerateContradictingTheListingIsRefused: generate BSC, a
// chain the listing gives an address, "prints it unchanged": an answer
// giving another address says two things, one of them wrong, and is
// refused with exit 1, the other address never printed as BSC's.
func TestDepositGenerateContradictingTheListingIsRefused(t *testing.T) {
	const other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	r := newStatusRig(t)
	r.rewrite.Store(onlyPath(exchange.PathGenerateAddress, func(b []byte) []byte {
		var info map[string]any
		if err := json.Unmarshal(b, &info); err != nil {
			t.Errorf("generate answered %s", b)
		}
		info["deposit_address"] = other
		b, _ = json.Marshal(info)
		return b
	}))
	vars := map[string]string{apiKeyVar: sandbox.DemoAPIKey}
	list := depositCmd(t, vars, "deposit", "--config", r.config)
	fields := strings.Fields(lineWith(list.stdout, "BSC "))
	if list.code != 0 || len(fields) < 3 || !strings.HasPrefix(fields[2], "0x") || fields[2] == other {
		t.Fatalf("the listing's BSC line: %q", lineWith(list.stdout, "BSC "))
	}
	res := depositCmd(t, vars, "deposit", "generate", "BSC", "--config", r.config)
	if res.code != exitFailed || strings.Contains(res.stdout, other) ||
		!strings.Contains(res.stderr, "the listing gives BSC the address "+fields[2]+", and generating gave another") {
		t.Errorf("generate BSC answered with %s, the listing giving %s: exit %d\nstdout %q\nstderr %q", other, fields[2], res.code, res.stdout, res.stderr)
	}
}

// TestDepositGenerateOnARefusedChainProvisionsNothing: the listing gives
// SOLANA chain id 1, refused; generate SOLANA says that refusal with exit 1
// and asks nothing of the service: SOLANA is still not provisioned.
func TestDepositGenerateOnARefusedChainProvisionsNothing(t *testing.T) {
	r := newStatusRig(t)
	r.rewrite.Store(onlyPath(exchange.PathDepositAddresses, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"chain":"SOLANA","chain_id":"solana"`), []byte(`"chain":"SOLANA","chain_id":"1"`), 1)
	}))
	vars := map[string]string{apiKeyVar: sandbox.DemoAPIKey}
	list := depositCmd(t, vars, "deposit", "--config", r.config)
	if !strings.Contains(lineWith(list.stdout, "SOLANA "), exchange.RefusedDeposit) {
		t.Fatalf("the listing's SOLANA line: %q", lineWith(list.stdout, "SOLANA "))
	}
	res := depositCmd(t, vars, "deposit", "generate", "SOLANA", "--config", r.config)
	if res.code != exitFailed || res.stdout != "" || !strings.Contains(res.stderr, "The SOLANA chain the service lists failed its check") {
		t.Errorf("generate on the chain the listing refused: exit %d\nstdout %q\nstderr %q", res.code, res.stdout, res.stderr)
	}
	r.rewrite.Store(nil)
	again := depositCmd(t, vars, "deposit", "--config", r.config)
	if !strings.Contains(lineWith(again.stdout, "SOLANA "), exchange.NotProvisioned) {
		t.Errorf("SOLANA was provisioned by the refused generate: %q", lineWith(again.stdout, "SOLANA "))
	}
}
