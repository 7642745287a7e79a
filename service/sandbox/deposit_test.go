package sandbox

import (
	"net/http"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

var apiKeyHeader = map[string]string{exchange.HeaderAPIKey: DemoAPIKey}

func listDeposits(t *testing.T, r response) []exchange.ChainInfo {
	t.Helper()
	wantStatus(t, r, http.StatusOK)
	var out exchange.DepositAddresses
	decode(t, r.body, &out)
	return out.Chains
}

func TestDepositAddressesList(t *testing.T) {
	h := newHarness(t, Options{})
	chains := listDeposits(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, apiKeyHeader))
	want := []struct{ chain, id string }{
		{"ARBITRUM", "42161"}, {"BASE", "8453"}, {"BSC", "56"}, {"KAIA", "8217"}, {"POLYGON", "137"}, {"TRON", "tron"}, {"SOLANA", "solana"},
	}
	if len(chains) != len(want) {
		t.Fatalf("%d chains, want %d", len(chains), len(want))
	}
	evm := chains[0].DepositAddress
	if err := exchange.ValidateAddress(exchange.ChainTypeEVM, evm); err != nil {
		t.Fatalf("EVM deposit address %q: %v", evm, err)
	}
	for i, c := range chains {
		if c.Chain != want[i].chain || c.ChainID != want[i].id {
			t.Errorf("chain %d = %s/%s, want %s/%s", i, c.Chain, c.ChainID, want[i].chain, want[i].id)
		}
		if len(c.SupportedTokens) != 2 || c.SupportedTokens[0].Name != "USDT" || c.SupportedTokens[1].Name != "USDC" {
			t.Errorf("%s tokens %+v", c.Chain, c.SupportedTokens)
		}
		ct := exchange.ChainTypeEVM
		switch c.Chain {
		case "TRON":
			ct = exchange.ChainTypeTron
		case "SOLANA":
			ct = exchange.ChainTypeSolana
		}
		for _, tok := range c.SupportedTokens {
			if err := exchange.ValidateAddress(ct, tok.ContractAddress); err != nil {
				t.Errorf("%s %s contract %q: %v", c.Chain, tok.Name, tok.ContractAddress, err)
			}
		}
		switch c.Chain {
		case "SOLANA":
			if c.DepositAddress != "" {
				t.Errorf("on-demand SOLANA has an address before generation: %q", c.DepositAddress)
			}
		case "TRON":
			if err := exchange.ValidateAddress(exchange.ChainTypeTron, c.DepositAddress); err != nil {
				t.Errorf("TRON deposit address %q: %v", c.DepositAddress, err)
			}
		default:
			if c.DepositAddress != evm {
				t.Errorf("%s deposit address %q, want the shared %q", c.Chain, c.DepositAddress, evm)
			}
		}
	}
	// The session route gives the same list.
	s := h.login(DemoAPIKey)
	if again := listDeposits(t, s.do(http.MethodGet, exchange.PathDepositAddresses, nil)); again[0].DepositAddress != chains[0].DepositAddress {
		t.Errorf("session listing differs: %+v", again[0])
	}
	// The trading key reaches the same account.
	listDeposits(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, map[string]string{exchange.HeaderAPIKey: TradingAPIKey}))
}

func TestDepositAuth(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	path := exchange.PathDepositAddresses
	wantError(t, h.do(http.MethodGet, path, nil, nil), exchange.CodeNotAuthenticated, "X-API-Key")
	wantError(t, h.do(http.MethodGet, path, nil, map[string]string{exchange.HeaderAPIKey: "nope"}), exchange.CodeNotAuthenticated)
	wantError(t, h.do(http.MethodGet, path, nil, map[string]string{"Cookie": "svc=forged", config.HeaderAccountID: DemoAccountID}), exchange.CodeNotAuthenticated)
	wantError(t, h.do(http.MethodGet, path, nil, map[string]string{"Cookie": "svc=" + s.cookie}), exchange.CodeNotAuthenticated, "X-Service-Account-Id")
	wantError(t, h.do(http.MethodGet, path, nil, map[string]string{"Cookie": "svc=" + s.cookie, config.HeaderAccountID: NoChainAccountID}), exchange.CodeForbidden)
	gen := exchange.PathGenerateAddress
	wantError(t, h.do(http.MethodPost, gen, `{"chain":"SOLANA"}`, nil), exchange.CodeNotAuthenticated)
}

func TestDepositNoChainAccount(t *testing.T) {
	h := newHarness(t, Options{})
	hdr := map[string]string{exchange.HeaderAPIKey: NoChainAPIKey}
	wantError(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, hdr), exchange.CodeNoChainAccount)
	wantError(t, h.do(http.MethodPost, exchange.PathGenerateAddress, `{"chain":"SOLANA"}`, hdr), exchange.CodeNoChainAccount)
	s := h.login(NoChainAPIKey)
	wantError(t, s.do(http.MethodGet, exchange.PathDepositAddresses, nil), exchange.CodeNoChainAccount)
}

func TestDepositBridgeDisabled(t *testing.T) {
	h := newHarness(t, Options{})
	h.ex.SetBridgeEnabled(DemoAccountID, false)
	wantError(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, apiKeyHeader), exchange.CodeBridgeDisabled)
	wantError(t, h.do(http.MethodPost, exchange.PathGenerateAddress, `{"chain":"SOLANA"}`, apiKeyHeader), exchange.CodeBridgeDisabled)
	h.ex.SetBridgeEnabled(DemoAccountID, true)
	listDeposits(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, apiKeyHeader))
}

func TestDepositProviderUnreachable(t *testing.T) {
	h := newHarness(t, Options{})
	h.ex.SetProviderReachable(false)
	for _, c := range listDeposits(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, apiKeyHeader)) {
		for _, tok := range c.SupportedTokens {
			if tok.ContractAddress != "" {
				t.Fatalf("%s %s contract %q while the provider is down", c.Chain, tok.Name, tok.ContractAddress)
			}
		}
	}
	h.ex.SetProviderReachable(true)
	if c := listDeposits(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, apiKeyHeader)); c[0].SupportedTokens[0].ContractAddress == "" {
		t.Fatal("contracts still empty once the provider is back")
	}
}

func TestGenerateAddress(t *testing.T) {
	h := newHarness(t, Options{})
	gen := func(body string) response {
		return h.do(http.MethodPost, exchange.PathGenerateAddress, body, apiKeyHeader)
	}
	r := gen(`{"chain":"solana"}`)
	wantStatus(t, r, http.StatusOK)
	var sol exchange.ChainInfo
	decode(t, r.body, &sol)
	if sol.Chain != "SOLANA" || sol.ChainID != "solana" || len(sol.SupportedTokens) != 2 {
		t.Fatalf("generated %+v", sol)
	}
	if err := exchange.ValidateAddress(exchange.ChainTypeSolana, sol.DepositAddress); err != nil {
		t.Fatalf("Solana deposit address %q: %v", sol.DepositAddress, err)
	}
	var again exchange.ChainInfo
	r = gen(`{"chain":"Solana"}`)
	wantStatus(t, r, http.StatusOK)
	decode(t, r.body, &again)
	if again.DepositAddress != sol.DepositAddress {
		t.Fatalf("second generation %q, first %q", again.DepositAddress, sol.DepositAddress)
	}
	if listed := listDeposits(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, apiKeyHeader))[6]; listed.DepositAddress != sol.DepositAddress {
		t.Fatalf("listing shows %q after generation", listed.DepositAddress)
	}
	// A ready chain answers with its existing address.
	var bsc exchange.ChainInfo
	r = gen(`{"chain":"bsc"}`)
	wantStatus(t, r, http.StatusOK)
	decode(t, r.body, &bsc)
	if bsc.Chain != "BSC" || bsc.DepositAddress != listDeposits(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, apiKeyHeader))[2].DepositAddress {
		t.Fatalf("BSC generation %+v", bsc)
	}

	wantError(t, gen(`{"chain":"DOGE"}`), exchange.CodeUnsupportedChain, "not supported")
	wantError(t, gen(`{"chain":"BSC_TEST"}`), exchange.CodeUnsupportedChain, "not enabled")
	wantError(t, gen(`{"chain":"ſolana"}`), exchange.CodeUnsupportedChain)
	wantError(t, gen(`{"chain":""}`), exchange.CodeMalformed, "chain")
	wantError(t, gen(`{"chain":1}`), exchange.CodeMalformed, "chain")
}

func TestExtraChains(t *testing.T) {
	h := newHarness(t, Options{ExtraChains: 1000})
	chains := listDeposits(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, apiKeyHeader))
	if len(chains) != 1007 {
		t.Fatalf("%d chains, want 1007", len(chains))
	}
	last := chains[1006]
	if last.Chain != "SYNTH_1000" || last.DepositAddress != chains[0].DepositAddress || last.SupportedTokens[0].ContractAddress == "" {
		t.Fatalf("last synthetic chain %+v", last)
	}
	wantStatus(t, h.do(http.MethodPost, exchange.PathGenerateAddress, `{"chain":"synth_0500"}`, apiKeyHeader), http.StatusOK)
}

func TestNegativeExtraChains(t *testing.T) {
	h := newHarness(t, Options{ExtraChains: -5})
	if n := len(listDeposits(t, h.do(http.MethodGet, exchange.PathDepositAddresses, nil, apiKeyHeader))); n != 7 {
		t.Fatalf("%d chains", n)
	}
}
