package sandbox

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

func TestBridgeNeedsSession(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	q := s.quote(DestCompleted, "BASE", "10")
	for _, c := range []struct{ method, path, body string }{
		{http.MethodGet, exchange.PathWithdrawalInfo, ""},
		{http.MethodPost, exchange.PathWithdrawalQuote, `{}`},
		{http.MethodPost, exchange.PathWithdraw, `{}`},
		{http.MethodGet, exchange.PathWithdrawalStatus + "?quote_id=" + q.QuoteID, ""},
	} {
		var body any
		if c.body != "" {
			body = c.body
		}
		wantError(t, h.do(c.method, c.path, body, apiKeyHeader), exchange.CodeNotAuthenticated, "session", "X-API-Key alone")
		wantError(t, h.do(c.method, c.path, body, nil), exchange.CodeNotAuthenticated, "log in")
		wantError(t, h.do(c.method, c.path, body, map[string]string{"Cookie": "svc=" + s.cookie}), exchange.CodeNotAuthenticated, "X-Service-Account-Id")
		wantError(t, h.do(c.method, c.path, body, map[string]string{"Cookie": "svc=" + s.cookie, config.HeaderAccountID: "acct-other"}), exchange.CodeForbidden)
	}
}

func TestWithdrawalInfo(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	r := s.do(http.MethodGet, exchange.PathWithdrawalInfo, nil)
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(string(r.body), `"USDC":[]`) {
		t.Errorf("USDC is not an empty array: %s", r.body)
	}
	var info exchange.WithdrawalInfo
	decode(t, r.body, &info)
	if info.Provider != Provider || info.FundingAddress != BridgeFundingAddress {
		t.Errorf("info %+v", info)
	}
	routes := info.Route["USDT"]
	if len(routes) != 7 {
		t.Fatalf("%d USDT routes", len(routes))
	}
	types := map[string]string{"TRON": "tron", "SOLANA": "solana"}
	for _, rt := range routes {
		wantType, wantOut := types[rt.Chain], "USDT"
		if wantType == "" {
			wantType, wantOut = "evm", "USDT,USDC"
		}
		if rt.ChainType != wantType || strings.Join(rt.TokensOut, ",") != wantOut || rt.ChainID == "" {
			t.Errorf("route %+v", rt)
		}
	}
	h.ex.SetBridgeEnabled(DemoAccountID, false)
	wantError(t, s.do(http.MethodGet, exchange.PathWithdrawalInfo, nil), exchange.CodeBridgeDisabled)
}

func TestQuote(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	q := s.quote(DestCompleted, "arbitrum", "100.25")
	want := exchange.Quote{
		QuoteID: q.QuoteID, PayAmount: decimal.RequireFromString("100.25"), ReceiveAmount: decimal.RequireFromString("98.75"),
		Fee: decimal.RequireFromString("1.5"), FeeUSD: decimal.RequireFromString("1.5"), Speed: "fast", ExpiresAt: t0.Add(time.Minute),
	}
	if !q.PayAmount.Equal(want.PayAmount) || !q.ReceiveAmount.Equal(want.ReceiveAmount) || !q.Fee.Equal(want.Fee) ||
		!q.FeeUSD.Equal(want.FeeUSD) || q.Speed != want.Speed || !q.ExpiresAt.Equal(want.ExpiresAt) || !strings.HasPrefix(q.QuoteID, "q-") {
		t.Fatalf("quote %+v, want %+v", q, want)
	}
	r := s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: DestCompleted, Chain: "BSC", TokenIn: "USDT", TokenOut: "USDC", Amount: "20"})
	wantStatus(t, r, http.StatusOK)
	// USDC is paid at USDCPerUSDT: (20 − 1.5) × 1.0002.
	if !strings.Contains(string(r.body), `"expires_at":"2026-03-02T10:01:00Z"`) || !strings.Contains(string(r.body), `"speed":"slow"`) ||
		!strings.Contains(string(r.body), `"receive_amount":"18.5037"`) {
		t.Errorf("BSC quote %s", r.body)
	}
	if s.quote(DestSolana, "SOLANA", "5").QuoteID == s.quote(DestTron, "TRON", "5").QuoteID {
		t.Error("quote ids repeat")
	}
	if b := h.ex.Balance(DemoAccountID); !b.Equal(decimal.RequireFromString(DemoBalance)) {
		t.Errorf("quotes moved money: balance %s", b)
	}
	r = s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: strings.ToLower(DestCompleted), Chain: "POLYGON", TokenIn: "usdt", TokenOut: "usdc", Amount: "2"})
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(string(r.body), `"receive_amount":"0.5001"`) {
		t.Errorf("a usdc payout, named in lower case, is not paid at the USDC rate: %s", r.body)
	}
	// The rate's product is cut to USDC's 6 places (D8): 18.500001 × 1.0002
	// is 18.5037010002, which no token amount can be.
	r = s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: DestCompleted, Chain: "BSC", TokenIn: "USDT", TokenOut: "USDC", Amount: "20.000001"})
	if wantStatus(t, r, http.StatusOK); !strings.Contains(string(r.body), `"receive_amount":"18.503701"`) {
		t.Errorf("a USDC payout is not cut to 6 places: %s", r.body)
	}
}

func TestQuoteRejections(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	cases := []struct {
		name                                 string
		to, chain, tokenIn, tokenOut, amount string
		code                                 exchange.Code
		words                                []string
	}{
		{"bad checksum", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc", "BASE", "USDT", "USDT", "10", exchange.CodeBadAddress, []string{"checksum"}},
		{"solana address on EVM chain", DestSolana, "BASE", "USDT", "USDT", "10", exchange.CodeBadAddress, []string{"evm"}},
		{"EVM address on TRON", DestCompleted, "TRON", "USDT", "USDT", "10", exchange.CodeBadAddress, []string{"tron"}},
		{"tron address on SOLANA", DestTron, "SOLANA", "USDT", "USDT", "10", exchange.CodeBadAddress, []string{"solana"}},
		{"unknown chain", DestCompleted, "DOGE", "USDT", "USDT", "10", exchange.CodeRouteUnsupported, []string{"DOGE"}},
		{"USDC in", DestCompleted, "BASE", "USDC", "USDC", "10", exchange.CodeRouteUnsupported, []string{"only USDT"}},
		{"USDC out on TRON", DestTron, "TRON", "USDT", "USDC", "10", exchange.CodeRouteUnsupported, []string{"TRON"}},
		{"seven decimals", DestCompleted, "BASE", "USDT", "USDT", "10.1234567", exchange.CodeMalformed, []string{"amount", "decimal places"}},
		{"not a number", DestCompleted, "BASE", "USDT", "USDT", "ten", exchange.CodeMalformed, []string{"amount"}},
		{"negative", DestCompleted, "BASE", "USDT", "USDT", "-5", exchange.CodeMalformed, []string{"amount"}},
		{"not in address book", BridgeFundingAddress, "BASE", "USDT", "USDT", "10", exchange.CodeNotInAddressBook, nil},
		{"equal to fee", DestCompleted, "BASE", "USDT", "USDT", "1.5", exchange.CodeBelowFee, []string{"1.5"}},
		{"below fee", DestCompleted, "BASE", "USDT", "USDT", "0.5", exchange.CodeBelowFee, nil},
		{"over daily limit", DestCompleted, "BASE", "USDT", "USDT", "5000.000001", exchange.CodeLimitReached, []string{"5000 USDT left"}},
		{"over KAIA liquidity", DestCompleted, "KAIA", "USDT", "USDT", "1000.01", exchange.CodeLimitReached, []string{"KAIA"}},
		{"missing amount", DestCompleted, "BASE", "USDT", "USDT", "", exchange.CodeMalformed, []string{"amount", "required"}},
		{"missing to_address", "", "BASE", "USDT", "USDT", "10", exchange.CodeMalformed, []string{"to_address", "required"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: c.to, Chain: c.chain, TokenIn: c.tokenIn, TokenOut: c.tokenOut, Amount: c.amount})
			wantError(t, r, c.code, c.words...)
		})
	}
	s.quote(DestCompleted, "KAIA", "1000")
	s.quote(DestCompleted, "BASE", "5000")
	h.ex.SetBridgeEnabled(DemoAccountID, false)
	wantError(t, s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: "10"}), exchange.CodeBridgeDisabled)
}

func TestStatusLookup(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	q := s.quote(DestCompleted, "BASE", "10")
	w := s.status(q.QuoteID)
	if w.State != exchange.StateCreated || w.TxID != "" || w.Chain != "BASE" || w.TokenOut != "USDT" || !w.ReceiveAmount.Equal(decimal.RequireFromString("8.5")) || !w.UpdatedAt.Equal(t0) {
		t.Fatalf("status %+v", w)
	}
	// An unused quote stays CREATED for quoteKeep after it expires, then is
	// forgotten (TestExpiredQuoteDropped).
	h.clock.Advance(DefaultQuoteTTL + quoteKeep - time.Second)
	if w := s.status(q.QuoteID); w.State != exchange.StateCreated {
		t.Fatalf("expired quote state %s", w.State)
	}
	wantError(t, s.do(http.MethodGet, exchange.PathWithdrawalStatus+"?quote_id=q-nope", nil), exchange.CodeNotFound)
	wantError(t, s.do(http.MethodGet, exchange.PathWithdrawalStatus, nil), exchange.CodeMalformed, "quote_id")

	other := h.login(NoChainAPIKey)
	oq := other.quote(DestCompleted, "BASE", "10")
	wantError(t, s.do(http.MethodGet, exchange.PathWithdrawalStatus+"?quote_id="+oq.QuoteID, nil), exchange.CodeNotFound)
	wantError(t, other.do(http.MethodGet, exchange.PathWithdrawalStatus+"?quote_id="+q.QuoteID, nil), exchange.CodeNotFound)
	// Status stays readable with the bridge switched off.
	h.ex.SetBridgeEnabled(DemoAccountID, false)
	s.status(q.QuoteID)
}
