package sandbox

import (
	"net/http"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// builderRequest builds a signed authorization of the builder by the demo
// owner; perms "" means the mode without an API key.
func (h *harness) builderAuth(keySigner common.Address, perms string, nonce uint32, exp time.Time) exchange.BuilderAuthorizeRequest {
	h.t.Helper()
	demo := key(h.t, DemoPrivateKey)
	req := exchange.BuilderAuthorizeRequest{
		MainAccountID: DemoAddress, BuilderAccountID: BuilderAddress,
		MaxFuturesFeeRate: "0.1", MaxSpotFeeRate: "0.05",
	}
	var m signer.Message = signer.AuthorizeBuilder{
		MainAccountID: demo.Address(), BuilderAccountID: common.HexToAddress(BuilderAddress),
		MaxFutureFeeRate: 1000, MaxSpotFeeRate: 500, Nonce: nonce, Expiration: exp.UnixNano(),
	}
	if perms != "" {
		req.BuilderAPIKeyLabel, req.BuilderAPIKeySigner, req.BuilderAPIKeyPermissions = "my bot", keySigner.Hex(), perms
		m = signer.AddAccountSignerWithBuilder{
			AccountID: demo.Address(), Signer: keySigner, Permissions: perms, BuilderAccountID: common.HexToAddress(BuilderAddress),
			MaxFutureFeeRate: 1000, MaxSpotFeeRate: 500, Nonce: nonce, Expiration: exp.UnixNano(),
		}
	}
	req.Signature = exchange.NewSignature(h.sign(demo, m))
	return req
}

func (h *harness) authorize(body any) response {
	return h.do(http.MethodPost, exchange.PathBuilderAuthorize, body, nil)
}

func TestBuilderAuthorizeWithoutKey(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.authorize(h.builderAuth(common.Address{}, "", 1, t0.Add(7*24*time.Hour)))
	wantStatus(t, r, http.StatusOK)
	if string(r.body) != "{}\n" {
		t.Fatalf("body %q, want {}", r.body)
	}
}

func TestBuilderAuthorizeWithKey(t *testing.T) {
	h := newHarness(t, Options{})
	botKey := key(t, NoChainPrivateKey) // any key pair the builder made for the user
	r := h.authorize(h.builderAuth(botKey.Address(), "ExternalTransfer&Trade", 1, t0.Add(30*24*time.Hour)))
	wantStatus(t, r, http.StatusOK)
	var res exchange.BuilderAuthorizeResult
	decode(t, r.body, &res)
	if len(res.APIKey) < 20 || res.APIKey[:4] != "sbx-" {
		t.Fatalf("api key %q", res.APIKey)
	}
	s := h.login(res.APIKey)
	want := exchange.LoginResult{Status: "success", FundingAccountAddress: DemoAddress, Location: "builder:" + BuilderAddress}
	if s.result != want || s.accountID != DemoAccountID {
		t.Fatalf("builder login %+v account %q, want %+v", s.result, s.accountID, want)
	}
	// The builder's signer is now a main-account signer with ExternalTransfer.
	q := s.quote(DestCompleted, "ARBITRUM", "10")
	wantStatus(t, s.withdraw(s.withdrawBody(q, botKey, DemoAddress, 1)), http.StatusAccepted)

	// A Trade-only signer is registered but cannot sign withdrawals.
	tradeKey := key(t, TradingSignerPrivateKey)
	r = h.authorize(h.builderAuth(tradeKey.Address(), "Trade", 2, t0.Add(time.Hour)))
	wantStatus(t, r, http.StatusOK)
	q = s.quote(DestCompleted, "ARBITRUM", "10")
	wantError(t, s.withdraw(s.withdrawBody(q, tradeKey, DemoAddress, 2)), exchange.CodeUnauthorizedSigner)

	// The session of a Trade-only key may still quote and execute: SPEC.md
	// §4.9 and §5 ask the permission of the Transfer's signer, and the
	// account's own wallet signs it.
	decode(t, r.body, &res)
	trade := h.login(res.APIKey)
	q = trade.quote(DestCompleted, "ARBITRUM", "10")
	wantStatus(t, trade.withdraw(trade.withdrawBody(q, key(t, DemoPrivateKey), DemoAddress, 3)), http.StatusAccepted)
}

func TestBuilderAuthorizeRejections(t *testing.T) {
	h := newHarness(t, Options{})
	bot := key(t, NoChainPrivateKey).Address()
	week := t0.Add(7 * 24 * time.Hour)
	valid := func(perms string) map[string]any { return toMap(t, h.builderAuth(bot, perms, 9, week)) }
	cases := []struct {
		name  string
		body  func() map[string]any
		code  exchange.Code
		words []string
	}{
		{"label only", func() map[string]any {
			b := valid("")
			b["builder_api_key_label"] = "bot"
			return b
		}, exchange.CodeBuilderFields, nil},
		{"signer and permissions without label", func() map[string]any {
			b := valid("Trade")
			delete(b, "builder_api_key_label")
			return b
		}, exchange.CodeBuilderFields, nil},
		{"signer and permissions with an empty label", func() map[string]any {
			b := valid("Trade")
			b["builder_api_key_label"] = ""
			return b
		}, exchange.CodeBuilderFields, nil},
		{"non-canonical permissions", func() map[string]any {
			b := valid("Trade")
			b["builder_api_key_permissions"] = "Trade&Admin"
			return b
		}, exchange.CodeBadPermissions, []string{"Admin&Trade"}},
		{"unknown permission", func() map[string]any {
			b := valid("Trade")
			b["builder_api_key_permissions"] = "Trade&Fly"
			return b
		}, exchange.CodeBadPermissions, nil},
		{"fee with 5 decimals", func() map[string]any {
			b := valid("")
			b["max_futures_fee_rate"] = "0.00001"
			return b
		}, exchange.CodeBadFeeRate, []string{"max_futures_fee_rate", "4"}},
		{"negative fee", func() map[string]any {
			b := valid("")
			b["max_spot_fee_rate"] = "-0.1"
			return b
		}, exchange.CodeBuilderFeeNegative, []string{"max_spot_fee_rate", "negative"}},
		{"fee missing", func() map[string]any {
			b := valid("")
			delete(b, "max_spot_fee_rate")
			return b
		}, exchange.CodeMalformed, []string{"max_spot_fee_rate"}},
		{"main missing", func() map[string]any {
			b := valid("")
			delete(b, "main_account_id")
			return b
		}, exchange.CodeMalformed, []string{"main_account_id is required"}},
		{"builder missing", func() map[string]any {
			b := valid("")
			delete(b, "builder_account_id")
			return b
		}, exchange.CodeMalformed, []string{"builder_account_id is required"}},
		{"futures fee missing", func() map[string]any {
			b := valid("")
			delete(b, "max_futures_fee_rate")
			return b
		}, exchange.CodeMalformed, []string{"max_futures_fee_rate is required"}},
		{"main not an address", func() map[string]any {
			b := valid("")
			b["main_account_id"] = "main"
			return b
		}, exchange.CodeMalformed, []string{"main_account_id"}},
		{"builder not an address", func() map[string]any {
			b := valid("")
			b["builder_account_id"] = "builder"
			return b
		}, exchange.CodeMalformed, []string{"builder_account_id"}},
		{"key signer not an address", func() map[string]any {
			b := valid("Trade")
			b["builder_api_key_signer"] = "0x12"
			return b
		}, exchange.CodeMalformed, []string{"builder_api_key_signer"}},
		{"expiration over 30 days", func() map[string]any {
			return toMap(t, h.builderAuth(bot, "", 9, t0.Add(30*24*time.Hour+time.Second)))
		}, exchange.CodeExpirationTooFar, []string{"30 days"}},
		{"expired", func() map[string]any {
			return toMap(t, h.builderAuth(bot, "", 9, t0.Add(-time.Second)))
		}, exchange.CodeSignatureExpired, nil},
		{"v 29", func() map[string]any {
			b := valid("")
			sigMap(b)["v"] = 29
			return b
		}, exchange.CodeBadV, nil},
		// Required in a builder authorization (SPEC.md §2.3), unlike in a
		// withdraw, where it may be left out.
		{"chain_id missing", func() map[string]any {
			b := valid("")
			delete(sigMap(b), "chain_id")
			return b
		}, exchange.CodeMalformed, []string{"signature.chain_id is required"}},
		// An empty string gives no chain id: required, it is missing.
		{"chain_id empty", func() map[string]any {
			b := valid("")
			sigMap(b)["chain_id"] = ""
			return b
		}, exchange.CodeMalformed, []string{"signature.chain_id is required"}},
		{"chain_id null", func() map[string]any {
			b := valid("")
			sigMap(b)["chain_id"] = nil
			return b
		}, exchange.CodeMalformed, []string{"signature.chain_id is required"}},
		{"chain_id with a leading zero", func() map[string]any {
			b := valid("")
			sigMap(b)["chain_id"] = "0" + sigMap(b)["chain_id"].(string)
			return b
		}, exchange.CodeMalformed, []string{"signature.chain_id"}},
		{"v missing", func() map[string]any {
			b := valid("")
			delete(sigMap(b), "v")
			return b
		}, exchange.CodeMalformed, []string{"signature.v is required"}},
		{"signer missing", func() map[string]any {
			b := valid("")
			delete(sigMap(b), "signer")
			return b
		}, exchange.CodeMalformed, []string{"signature.signer is required"}},
		{"r missing", func() map[string]any {
			b := valid("")
			delete(sigMap(b), "r")
			return b
		}, exchange.CodeMalformed, []string{"signature.r is required"}},
		{"s missing", func() map[string]any {
			b := valid("")
			delete(sigMap(b), "s")
			return b
		}, exchange.CodeMalformed, []string{"signature.s is required"}},
		{"expiration missing", func() map[string]any {
			b := valid("")
			delete(sigMap(b), "expiration")
			return b
		}, exchange.CodeMalformed, []string{"signature.expiration is required"}},
		{"signer not an address", func() map[string]any {
			b := valid("")
			sigMap(b)["signer"] = "0x12"
			return b
		}, exchange.CodeMalformed, []string{"signature.signer"}},
		{"unknown main account", func() map[string]any {
			b := valid("")
			b["main_account_id"] = DestCompleted
			return b
		}, exchange.CodeUnauthorizedSigner, []string{"main_account_id"}},
		{"signed by the builder", func() map[string]any {
			m := signer.AuthorizeBuilder{
				MainAccountID: common.HexToAddress(DemoAddress), BuilderAccountID: common.HexToAddress(BuilderAddress),
				MaxFutureFeeRate: 1000, MaxSpotFeeRate: 500, Nonce: 9, Expiration: week.UnixNano(),
			}
			b := valid("")
			b["signature"] = toMap(t, map[string]any{"s": exchange.NewSignature(h.sign(key(t, BuilderPrivateKey), m))})["s"]
			return b
		}, exchange.CodeUnauthorizedSigner, []string{"main account"}},
		{"fee differs from signed", func() map[string]any {
			b := valid("")
			b["max_futures_fee_rate"] = "0.2"
			return b
		}, exchange.CodeSignatureMismatch, nil},
		{"permissions differ from signed", func() map[string]any {
			b := valid("Trade")
			b["builder_api_key_permissions"] = "Admin&Trade"
			return b
		}, exchange.CodeSignatureMismatch, nil},
		{"other chain id", func() map[string]any {
			b := valid("")
			sigMap(b)["chain_id"] = "326"
			return b
		}, exchange.CodeBadChainID, []string{"326", "327"}},
		{"high s", func() map[string]any {
			b := valid("")
			highS(sigMap(b))
			return b
		}, exchange.CodeHighS, []string{"lower half"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, h.authorize(c.body()), c.code, c.words...)
		})
	}
	// Nonce 9 is still fresh after all that; then it is spent.
	wantStatus(t, h.authorize(valid("")), http.StatusOK)
	wantError(t, h.authorize(valid("")), exchange.CodeDuplicateSignature)
	wantError(t, h.authorize(valid("Trade")), exchange.CodeDuplicateSignature)
}
