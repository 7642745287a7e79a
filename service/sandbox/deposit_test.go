package sandbox

import (
	"net/http"
	"testing"

	"svcwallet/service"
	"svcwallet/service/config"
)

var apiKeyHeader = map[string]string{service.HeaderAPIKey: DemoAPIKey}

func listDeposits(t *testing.T, r response) []service.ChainInfo {
	t.Helper()
	wantStatus(t, r, http.StatusOK)
	var out service.DepositAddresses
	decode(t, r.body, &out)
	return out.Chains
}

func TestDepositAddressesList(t *testing.T) {
	h := newHarness(t, Options{})
	chains := listDeposits(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, apiKeyHeader))
	want := []struct{ chain, id string }{
		{"ARBITRUM", "42161"}, {"BASE", "8453"}, {"BSC", "56"}, {"KAIA", "8217"}, {"POLYGON", "137"}, {"TRON", "tron"}, {"SOLANA", "solana"},
	}
	if len(chains) != len(want) {
		t.Fatalf("%d chains, want %d", len(chains), len(want))
	}
	evm := chains[0].DepositAddress
	if err := service.ValidateAddress(service.ChainTypeEVM, evm); err != nil {
		t.Fatalf("EVM deposit address %q: %v", evm, err)
	}
	for i, c := range chains {
		if c.Chain != want[i].chain || c.ChainID != want[i].id {
			t.Errorf("chain %d = %s/%s, want %s/%s", i, c.Chain, c.ChainID, want[i].chain, want[i].id)
		}
		if len(c.SupportedTokens) != 2 || c.SupportedTokens[0].Name != "USDT" || c.SupportedTokens[1].Name != "USDC" {
			t.Errorf("%s tokens %+v", c.Chain, c.SupportedTokens)
		}
		ct := service.ChainTypeEVM
		switch c.Chain {
		case "TRON":
			ct = service.ChainTypeTron
		case "SOLANA":
			ct = service.ChainTypeSolana
		}
		for _, tok := range c.SupportedTokens {
			if err := service.ValidateAddress(ct, tok.ContractAddress); err != nil {
				t.Errorf("%s %s contract %q: %v", c.Chain, tok.Name, tok.ContractAddress, err)
			}
		}
		switch c.Chain {
		case "SOLANA":
			if c.DepositAddress != "" {
				t.Errorf("on-demand SOLANA has an address before generation: %q", c.DepositAddress)
			}
		case "TRON":
			if err := service.ValidateAddress(service.ChainTypeTron, c.DepositAddress); err != nil {
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
	if again := listDeposits(t, s.do(http.MethodGet, service.PathDepositAddresses, nil)); again[0].DepositAddress != chains[0].DepositAddress {
		t.Errorf("session listing differs: %+v", again[0])
	}
	// The trading key reaches the same account.
	listDeposits(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, map[string]string{service.HeaderAPIKey: TradingAPIKey}))
}

func TestDepositAuth(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	path := service.PathDepositAddresses
	wantError(t, h.do(http.MethodGet, path, nil, nil), service.CodeNotAuthenticated, "X-API-Key")
	wantError(t, h.do(http.MethodGet, path, nil, map[string]string{service.HeaderAPIKey: "nope"}), service.CodeNotAuthenticated)
	wantError(t, h.do(http.MethodGet, path, nil, map[string]string{"Cookie": "svc=forged", config.HeaderAccountID: DemoAccountID}), service.CodeNotAuthenticated)
	wantError(t, h.do(http.MethodGet, path, nil, map[string]string{"Cookie": "svc=" + s.cookie}), service.CodeNotAuthenticated, "X-Service-Account-Id")
	wantError(t, h.do(http.MethodGet, path, nil, map[string]string{"Cookie": "svc=" + s.cookie, config.HeaderAccountID: NoChainAccountID}), service.CodeForbidden)
	gen := service.PathGenerateAddress
	wantError(t, h.do(http.MethodPost, gen, `{"chain":"SOLANA"}`, nil), service.CodeNotAuthenticated)
}

func TestDepositNoChainAccount(t *testing.T) {
	h := newHarness(t, Options{})
	hdr := map[string]string{service.HeaderAPIKey: NoChainAPIKey}
	wantError(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, hdr), service.CodeNoChainAccount)
	wantError(t, h.do(http.MethodPost, service.PathGenerateAddress, `{"chain":"SOLANA"}`, hdr), service.CodeNoChainAccount)
	s := h.login(NoChainAPIKey)
	wantError(t, s.do(http.MethodGet, service.PathDepositAddresses, nil), service.CodeNoChainAccount)
}

func TestDepositBridgeDisabled(t *testing.T) {
	h := newHarness(t, Options{})
	h.ex.SetBridgeEnabled(DemoAccountID, false)
	wantError(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, apiKeyHeader), service.CodeBridgeDisabled)
	wantError(t, h.do(http.MethodPost, service.PathGenerateAddress, `{"chain":"SOLANA"}`, apiKeyHeader), service.CodeBridgeDisabled)
	h.ex.SetBridgeEnabled(DemoAccountID, true)
	listDeposits(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, apiKeyHeader))
}

func TestDepositProviderUnreachable(t *testing.T) {
	h := newHarness(t, Options{})
	h.ex.SetProviderReachable(false)
	for _, c := range listDeposits(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, apiKeyHeader)) {
		for _, tok := range c.SupportedTokens {
			if tok.ContractAddress != "" {
				t.Fatalf("%s %s contract %q while the provider is down", c.Chain, tok.Name, tok.ContractAddress)
			}
		}
	}
	h.ex.SetProviderReachable(true)
	if c := listDeposits(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, apiKeyHeader)); c[0].SupportedTokens[0].ContractAddress == "" {
		t.Fatal("contracts still empty once the provider is back")
	}
}

func TestGenerateAddress(t *testing.T) {
	h := newHarness(t, Options{})
	gen := func(body string) response {
		return h.do(http.MethodPost, service.PathGenerateAddress, body, apiKeyHeader)
	}
	r := gen(`{"chain":"solana"}`)
	wantStatus(t, r, http.StatusOK)
	var sol service.ChainInfo
	decode(t, r.body, &sol)
	if sol.Chain != "SOLANA" || sol.ChainID != "solana" || len(sol.SupportedTokens) != 2 {
		t.Fatalf("generated %+v", sol)
	}
	if err := service.ValidateAddress(service.ChainTypeSolana, sol.DepositAddress); err != nil {
		t.Fatalf("Solana deposit address %q: %v", sol.DepositAddress, err)
	}
	var again service.ChainInfo
	r = gen(`{"chain":"Solana"}`)
	wantStatus(t, r, http.StatusOK)
	decode(t, r.body, &again)
	if again.DepositAddress != sol.DepositAddress {
		t.Fatalf("second generation %q, first %q", again.DepositAddress, sol.DepositAddress)
	}
	if listed := listDeposits(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, apiKeyHeader))[6]; listed.DepositAddress != sol.DepositAddress {
		t.Fatalf("listing shows %q after generation", listed.DepositAddress)
	}
	// A ready chain answers with its existing address.
	var bsc service.ChainInfo
	r = gen(`{"chain":"bsc"}`)
	wantStatus(t, r, http.StatusOK)
	decode(t, r.body, &bsc)
	if bsc.Chain != "BSC" || bsc.DepositAddress != listDeposits(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, apiKeyHeader))[2].DepositAddress {
		t.Fatalf("BSC generation %+v", bsc)
	}

	wantError(t, gen(`{"chain":"DOGE"}`), service.CodeUnsupportedChain, "not supported")
	wantError(t, gen(`{"chain":"BSC_TEST"}`), service.CodeUnsupportedChain, "not enabled")
	wantError(t, gen(`{"chain":"ſolana"}`), service.CodeUnsupportedChain)
	wantError(t, gen(`{"chain":""}`), service.CodeMalformed, "chain")
	wantError(t, gen(`{"chain":1}`), service.CodeMalformed, "chain")
}

func TestExtraChains(t *testing.T) {
	h := newHarness(t, Options{ExtraChains: 1000})
	chains := listDeposits(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, apiKeyHeader))
	if len(chains) != 1007 {
		t.Fatalf("%d chains, want 1007", len(chains))
	}
	last := chains[1006]
	if last.Chain != "SYNTH_1000" || last.DepositAddress != chains[0].DepositAddress || last.SupportedTokens[0].ContractAddress == "" {
		t.Fatalf("last synthetic chain %+v", last)
	}
	wantStatus(t, h.do(http.MethodPost, service.PathGenerateAddress, `{"chain":"synth_0500"}`, apiKeyHeader), http.StatusOK)
}

func TestNegativeExtraChains(t *testing.T) {
	h := newHarness(t, Options{ExtraChains: -5})
	if n := len(listDeposits(t, h.do(http.MethodGet, service.PathDepositAddresses, nil, apiKeyHeader))); n != 7 {
		t.Fatalf("%d chains", n)
	}
}
