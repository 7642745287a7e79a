package exchange_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// chainTypeCases are deposit chains whose name and chain id agree, or not,
// on the address type, each with an address of the type it would take.
var chainTypeCases = []struct {
	chain, chainID, address string
	refused                 string // a piece of the reason; "" when usable
}{
	{"SOLANA", "1", sandbox.DemoAddress, "name SOLANA makes it a Solana chain but its chain id 1 is an EVM"},
	{"TRON", "56", sandbox.DemoAddress, "name TRON makes it a Tron chain but its chain id 56 is an EVM"},
	{"TRON_TEST", "56", "", "name TRON_TEST makes it a Tron chain"},
	{"BSC", "tron", sandbox.DestTron, "name BSC makes it an EVM chain"},
	{"SOLANA_TEST", "tron", sandbox.DestTron, "chain id tron is a Tron chain's"},
	{"APTOS", "aptos", sandbox.DemoAddress, "cannot check addresses of chain id aptos"},
	{"SOLANA", "solana", sandbox.DestSolana, ""},
	{"TRON_TEST", "tron", sandbox.DestTron, ""},
	{"BSC", "56", sandbox.DemoAddress, ""},
	// A staging list's own names: the chain id decides.
	{"STAGING_EVM", "31337", sandbox.DemoAddress, ""},
	{"STAGING_T", "tron", sandbox.DestTron, ""},
	{"STAGING_S", "solana", sandbox.DestSolana, ""},
}

// TestHostileDepositChainType: a chain whose name and chain id disagree on
// its address type (SOLANA with chain id 1, TRON with 56) is refused with
// the reason, with or without an address, in the listing and in
// generate-address; a name SPEC.md §2.7 does not settle leaves the type to
// the chain id.
func TestHostileDepositChainType(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	h.set(onPath(exchange.PathDepositAddresses, func(v any) any {
		var chains []any
		for _, tc := range chainTypeCases {
			chains = append(chains, map[string]any{"chain": tc.chain, "chain_id": tc.chainID, "deposit_address": tc.address,
				"supported_tokens": []any{map[string]any{"name": "USDT"}}})
		}
		v.(map[string]any)["chains"] = chains
		return v
	}))
	chains, err := c.DepositAddresses(ctx)
	if err != nil || len(chains) != len(chainTypeCases) {
		t.Fatalf("%d chains, %v", len(chains), err)
	}
	for i, tc := range chainTypeCases {
		ch := chains[i]
		switch {
		case tc.refused == "" && (ch.AddressProblem != "" || ch.DepositAddress != tc.address):
			t.Errorf("%s %s: %+v, want its address usable", tc.chain, tc.chainID, ch)
		case tc.refused != "" && (ch.DepositAddress != "" || ch.RefusedAddress != tc.address || !strings.Contains(ch.AddressProblem, tc.refused)):
			t.Errorf("%s %s: %+v, want it refused: %q", tc.chain, tc.chainID, ch, tc.refused)
		}
	}

	// generate-address is held to the same rule, and must answer for the
	// chain asked.
	h.set(onPath(exchange.PathGenerateAddress, func(v any) any {
		v.(map[string]any)["chain_id"], v.(map[string]any)["deposit_address"] = "1", sandbox.DemoAddress
		return v
	}))
	info, err := c.GenerateAddress(ctx, "SOLANA")
	if err != nil || info.DepositAddress != "" || !strings.Contains(info.AddressProblem, "Solana chain but its chain id 1") {
		t.Errorf("generate SOLANA as chain id 1: %+v, %v", info, err)
	}
	h.set(onPath(exchange.PathGenerateAddress, func(v any) any {
		v.(map[string]any)["chain"], v.(map[string]any)["chain_id"], v.(map[string]any)["deposit_address"] = "BSC", "56", sandbox.DemoAddress
		return v
	}))
	info, err = c.GenerateAddress(ctx, "SOLANA")
	if err == nil || !errors.As(err, new(*exchange.UnreadableAnswerError)) || !strings.Contains(err.Error(), "BSC, not the SOLANA asked for") {
		t.Errorf("generate SOLANA answered for BSC: %+v, %v", info, err)
	}
}

// TestHostileRouteChainType: a withdrawal route whose chain type disagrees
// with what its chain's name or chain id settles (a SOLANA route of type
// evm would check, and journal, an EVM destination for Solana) refuses the
// answer; a name and chain id that settle nothing leave the type to the
// route.
func TestHostileRouteChainType(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	for _, tc := range []struct {
		chain, chainID, chainType string
		refused                   string
	}{
		{"SOLANA", "solana", "evm", "is evm, but the chain SOLANA with chain id solana is a Solana chain"},
		{"TRON", "56", "tron", "is tron, but the chain TRON with chain id 56 is an EVM chain"},
		{"BSC", "56", "tron", "is tron, but the chain BSC with chain id 56 is an EVM chain"},
		{"STAGING_X", "solana", "evm", "is evm, but the chain STAGING_X with chain id solana is a Solana chain"},
		{"SOLANA", "solana", "solana", ""},
		{"STAGING_T", "tron", "tron", ""},
		{"STAGING_Y", "aptos", "evm", ""},
	} {
		h.set(onPath(exchange.PathWithdrawalInfo, func(v any) any {
			v.(map[string]any)["route"] = map[string]any{"USDT": []any{map[string]any{
				"chain": tc.chain, "chain_id": tc.chainID, "chain_type": tc.chainType, "tokens_out": []any{"USDT"}}}}
			return v
		}))
		info, err := c.WithdrawalInfo(ctx)
		switch {
		case tc.refused == "" && (err != nil || info.Route["USDT"][0].ChainType != tc.chainType):
			t.Errorf("%s %s %s: %+v, %v; want it taken", tc.chain, tc.chainID, tc.chainType, info, err)
		case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
			t.Errorf("%s %s %s: %+v, %v; want it refused: %s", tc.chain, tc.chainID, tc.chainType, info, err, tc.refused)
		}
	}
}

// TestDepositListingNamingAChainTwice: a listing that names one chain twice
// (in any case) with two addresses says two things, and both are refused;
// a chain listed twice with one address, and the other chains, are kept.
func TestDepositListingNamingAChainTwice(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	entry := func(chain, chainID, addr string) any {
		return map[string]any{"chain": chain, "chain_id": chainID, "deposit_address": addr,
			"supported_tokens": []any{map[string]any{"name": "USDT"}}}
	}
	h.set(onPath(exchange.PathDepositAddresses, func(v any) any {
		v.(map[string]any)["chains"] = []any{
			entry("ARBITRUM", "42161", sandbox.DemoAddress), entry("BSC", "56", sandbox.DemoAddress),
			entry("arbitrum", "42161", sandbox.DestFailed), entry("BSC", "56", sandbox.DemoAddress),
			entry("TRON", "tron", sandbox.DestTron),
		}
		return v
	}))
	chains, err := c.DepositAddresses(ctx)
	if err != nil || len(chains) != 5 {
		t.Fatalf("%d chains, %v", len(chains), err)
	}
	for i, want := range []string{sandbox.DemoAddress, sandbox.DestFailed} {
		ch := chains[i*2]
		if ch.DepositAddress != "" || ch.RefusedAddress != want || !strings.Contains(ch.AddressProblem, "names "+ch.Chain+" twice with two addresses") {
			t.Errorf("entry %d: %+v, want its address refused", i*2, ch)
		}
	}
	for _, i := range []int{1, 3, 4} {
		if ch := chains[i]; ch.DepositAddress == "" || ch.AddressProblem != "" {
			t.Errorf("entry %d: %+v, want it usable", i, ch)
		}
	}
}

// TestDepositListingGivingAChainIDTwice: two names for one chain id with
// two addresses say two things, as one name twice does, and both are
// refused; an EVM address listed again in another case is the same
// address, and kept.
func TestDepositListingGivingAChainIDTwice(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	entry := func(chain, chainID, addr string) any {
		return map[string]any{"chain": chain, "chain_id": chainID, "deposit_address": addr,
			"supported_tokens": []any{map[string]any{"name": "USDT"}}}
	}
	h.set(onPath(exchange.PathDepositAddresses, func(v any) any {
		v.(map[string]any)["chains"] = []any{
			entry("ARBITRUM", "42161", sandbox.DemoAddress), entry("ARB", "42161", sandbox.DestFailed),
			entry("BSC", "56", sandbox.DemoAddress), entry("bsc", "56", strings.ToLower(sandbox.DemoAddress)),
			entry("BNB", "56", strings.ToLower(sandbox.DemoAddress)),
		}
		return v
	}))
	chains, err := c.DepositAddresses(ctx)
	if err != nil || len(chains) != 5 {
		t.Fatalf("%d chains, %v", len(chains), err)
	}
	for i, want := range []string{sandbox.DemoAddress, sandbox.DestFailed} {
		ch := chains[i]
		if ch.DepositAddress != "" || ch.RefusedAddress != want || !strings.Contains(ch.AddressProblem, "gives chain id 42161 to two chains with two addresses") {
			t.Errorf("entry %d: %+v, want its address refused", i, ch)
		}
		if ch.Verdict() != exchange.DepositRefused {
			t.Errorf("entry %d: verdict %v, want refused", i, ch.Verdict())
		}
	}
	for _, i := range []int{2, 3, 4} {
		if ch := chains[i]; ch.DepositAddress == "" || ch.AddressProblem != "" {
			t.Errorf("entry %d: %+v, want it usable", i, ch)
		}
	}
}

// TestDepositListingWithoutNames: a chain without a name or chain id, or a
// token without a name, is refused: every face draws the name as the chain
// to deposit on (generating an address sends it back), and a refusal of
// an empty one read "The  chain … chain id )".
func TestDepositListingWithoutNames(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	for _, tc := range []struct{ chain, chainID, token, says string }{
		{"", "42161", "USDT", "chain name is empty"},
		{"ARBITRUM", "", "USDT", "chain id is empty"},
		{"ARBITRUM", "42161", "", "token name is empty"},
	} {
		h.set(onPath(exchange.PathDepositAddresses, func(v any) any {
			v.(map[string]any)["chains"] = []any{map[string]any{"chain": tc.chain, "chain_id": tc.chainID,
				"deposit_address": sandbox.DemoAddress, "supported_tokens": []any{map[string]any{"name": tc.token}}}}
			return v
		}))
		if _, err := c.DepositAddresses(ctx); !strings.Contains(shapeSays(err), tc.says) {
			t.Errorf("%q %q %q: %v; want a shape error saying %q", tc.chain, tc.chainID, tc.token, err, tc.says)
		}
	}
}

// TestGeneratedAddressMissing: a generation answered without an address
// (an allowed ChainInfo, but not the address asked for) is refused: the
// console and plain mode said "SOLANA deposit address ready: " and the
// command line sent the user to generate it again.
func TestGeneratedAddressMissing(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	h.set(onPath(exchange.PathGenerateAddress, func(v any) any {
		v.(map[string]any)["deposit_address"] = ""
		return v
	}))
	info, err := c.GenerateAddress(ctx, "SOLANA")
	if !strings.Contains(shapeSays(err), "deposit address is empty") {
		t.Fatalf("%+v, %v; want it refused: the address asked for is missing", info, err)
	}
	if strings.Contains(err.Error(), "ready") || !strings.Contains(err.Error(), "try again") {
		t.Errorf("the refusal does not say what to do: %v", err)
	}
}
