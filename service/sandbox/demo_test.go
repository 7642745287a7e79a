package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// The documented keys, addresses and destinations are what they claim.
func TestDemoFixtures(t *testing.T) {
	for _, c := range []struct{ key, addr string }{
		{DemoPrivateKey, DemoAddress}, {BuilderPrivateKey, BuilderAddress},
		{TradingSignerPrivateKey, TradingSignerAddress}, {NoChainPrivateKey, NoChainAddress},
	} {
		if got := key(t, c.key).Address().Hex(); got != c.addr {
			t.Errorf("key for %s gives %s", c.addr, got)
		}
	}
	for _, a := range []string{DemoAddress, BuilderAddress, TradingSignerAddress, NoChainAddress, DestCompleted, DestFlagged, DestFailed, DestRefunded, BridgeFundingAddress} {
		if common.HexToAddress(a).Hex() != a {
			t.Errorf("%s is not in EIP-55 form", a)
		}
	}
	if err := exchange.ValidateAddress(exchange.ChainTypeSolana, DestSolana); err != nil {
		t.Errorf("DestSolana: %v", err)
	}
	if err := exchange.ValidateAddress(exchange.ChainTypeTron, DestTron); err != nil {
		t.Errorf("DestTron: %v", err)
	}
	seen := map[string]bool{}
	for _, a := range []string{DemoAddress, BuilderAddress, TradingSignerAddress, NoChainAddress, DestCompleted, DestFlagged, DestFailed, DestRefunded, BridgeFundingAddress} {
		if seen[a] {
			t.Errorf("%s plays two roles", a)
		}
		seen[a] = true
	}
}

// FuzzSandboxJSON posts arbitrary bodies to each POST endpoint with a valid
// session (and API key, for generate-address): never a 5xx, and every
// rejection is a D7 JSON body whose status matches the HTTP one.
func FuzzSandboxJSON(f *testing.F) {
	seeds := []string{
		``, `{}`, `null`, `[]`, `{"api_key":"sandbox-demo-key"}`, `{"chain":"solana"}`,
		`{"to_address":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC","chain":"BASE","token_in":"USDT","token_out":"USDT","amount":"10"}`,
		`{"quote_id":"q-x","signature":{"signer":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","r":"0x00","s":"0x00","v":27,"nonce":1,"expiration":"1","chain_id":327}}`,
		`{"address":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","signature":{"signer":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","r":"0x","s":"0x","v":28,"nonce":4294967295,"expiration":"-9223372036854775808","chain_id":"18446744073709551615"}}`,
		`{"main_account_id":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","builder_account_id":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","max_futures_fee_rate":"429496.7296","max_spot_fee_rate":"0.1","builder_api_key_label":"x","builder_api_key_signer":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","builder_api_key_permissions":"Trade&Admin"}`,
	}
	paths := []string{
		exchange.PathAPIKeyLogin, exchange.PathWalletLogin, exchange.PathBuilderAuthorize,
		exchange.PathGenerateAddress, exchange.PathWithdrawalQuote, exchange.PathWithdraw,
	}
	for _, s := range seeds {
		for i := range paths {
			f.Add(uint8(i), []byte(s))
		}
	}
	ex := New(Options{})
	rec := httptest.NewRecorder()
	ex.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, exchange.PathAPIKeyLogin, bytes.NewBufferString(`{"api_key":"sandbox-demo-key"}`)))
	cookie := rec.Result().Cookies()[0].Value
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		p := paths[int(which)%len(paths)]
		req := httptest.NewRequest(http.MethodPost, p, bytes.NewReader(body))
		req.Header.Set("Cookie", "svc="+cookie)
		req.Header.Set(config.HeaderAccountID, DemoAccountID)
		if p == exchange.PathGenerateAddress {
			req.Header.Set(exchange.HeaderAPIKey, DemoAPIKey)
		}
		rec := httptest.NewRecorder()
		ex.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s: HTTP %d for %q", p, rec.Code, body)
		}
		if rec.Code < 300 {
			if !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("%s: 2xx body not JSON: %q", p, rec.Body)
			}
			return
		}
		var e exchange.ErrorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Code == 0 || e.Status != rec.Code || e.Message == "" {
			t.Fatalf("%s: HTTP %d body %q", p, rec.Code, rec.Body)
		}
	})
}
