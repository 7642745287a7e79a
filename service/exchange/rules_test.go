package exchange_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// Every rejection rule of SPEC.md §4, §5, §7 and §8, client → sandbox over
// loopback: each case asserts errors.Is(err, code) and the *APIError's HTTP
// status. Where the client can never send the offending request (it always
// signs right), the body is built from the service types and posted by hand
// (world.raw). docs/testing.md, "Rules and their tests", maps each rule to its case.

// TestRulesLogin covers SPEC.md §4.1, §4.2 and §8 (login window and nonce).
func TestRulesLogin(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	demo := mustKey(t, sandbox.DemoPrivateKey)
	builder := mustKey(t, sandbox.BuilderPrivateKey)

	t.Run("api key unknown", func(t *testing.T) {
		_, err := w.Client(exchange.Options{}).Login(ctx, exchange.APIKey("sandbox-no-such-key"))
		wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	})
	// The published service answers the four refusals of a wallet login
	// (expired, invalid signature, unregistered wallet, replayed nonce) with
	// 401 and names the reason in the message; the client words that reason.
	for _, name := range []string{"wallet not a registered main signer", "wallet trading signer"} {
		k := builder
		if name == "wallet trading signer" {
			k = mustKey(t, sandbox.TradingSignerPrivateKey)
		}
		t.Run(name, func(t *testing.T) {
			_, err := w.Client(exchange.Options{}).Login(ctx, exchange.Wallet(k))
			wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
			wantLoginReason(t, err, "wallet not registered")
			if got := exchange.Explain(err).Error(); !strings.HasPrefix(got, "Wallet not registered: ") {
				t.Errorf("the client words it %q", got)
			}
		})
	}

	post := func(body exchange.WalletLoginRequest) error {
		return w.raw(http.MethodPost, exchange.PathWalletLogin, body, nil)
	}
	soon := t0.Add(4 * time.Minute)
	t.Run("wallet valid hand-made body", func(t *testing.T) {
		if err := post(w.signedLogin(demo, 1, soon)); err != nil {
			t.Fatalf("the hand-made login is refused, so the cases below prove nothing: %v", err)
		}
	})
	t.Run("wallet replayed nonce", func(t *testing.T) {
		body := w.signedLogin(demo, 2, soon)
		if err := post(body); err != nil {
			t.Fatal(err)
		}
		err := post(body)
		wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
		wantLoginReason(t, err, "signature already used")
		// A fresh signature with the same nonce inside the window: still a replay.
		err = post(w.signedLogin(demo, 2, t0.Add(3*time.Minute)))
		wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
		wantLoginReason(t, err, "signature already used")
	})

	cases := []struct {
		name   string
		body   func() exchange.WalletLoginRequest
		code   exchange.Code
		status int
		reason string // the message's first words, for a 401
	}{
		{"wallet expiration in the past", func() exchange.WalletLoginRequest {
			return w.signedLogin(demo, 10, t0.Add(-time.Second))
		}, exchange.CodeNotAuthenticated, http.StatusUnauthorized, "signature expired"},
		{"wallet expiration now", func() exchange.WalletLoginRequest {
			return w.signedLogin(demo, 11, t0)
		}, exchange.CodeNotAuthenticated, http.StatusUnauthorized, "signature expired"},
		{"wallet expiration more than 5 min ahead", func() exchange.WalletLoginRequest {
			return w.signedLogin(demo, 12, t0.Add(5*time.Minute+time.Second))
		}, exchange.CodeExpirationTooFar, http.StatusBadRequest, ""},
		{"wallet v 29", func() exchange.WalletLoginRequest {
			b := w.signedLogin(demo, 13, soon)
			b.Signature.V = 29
			return b
		}, exchange.CodeMalformed, http.StatusBadRequest, ""},
		{"wallet v 1", func() exchange.WalletLoginRequest {
			b := w.signedLogin(demo, 14, soon)
			b.Signature.V -= 27
			return b
		}, exchange.CodeMalformed, http.StatusBadRequest, ""},
		{"wallet r short", func() exchange.WalletLoginRequest {
			b := w.signedLogin(demo, 15, soon)
			b.Signature.R = b.Signature.R[:64]
			return b
		}, exchange.CodeMalformed, http.StatusBadRequest, ""},
		{"wallet s not hex", func() exchange.WalletLoginRequest {
			b := w.signedLogin(demo, 16, soon)
			b.Signature.S = "0x" + "zz" + b.Signature.S[4:]
			return b
		}, exchange.CodeMalformed, http.StatusBadRequest, ""},
		{"wallet high s", func() exchange.WalletLoginRequest {
			b := w.signedLogin(demo, 22, soon)
			highS(&b.Signature.S, &b.Signature.V)
			return b
		}, exchange.CodeNotAuthenticated, http.StatusUnauthorized, "invalid signature"},
		{"wallet r without 0x", func() exchange.WalletLoginRequest {
			b := w.signedLogin(demo, 17, soon)
			b.Signature.R = "00" + b.Signature.R[2:]
			return b
		}, exchange.CodeMalformed, http.StatusBadRequest, ""},
		{"wallet signed by another key", func() exchange.WalletLoginRequest {
			b := w.signedLogin(builder, 18, soon)
			b.Address, b.Signature.Signer = sandbox.DemoAddress, sandbox.DemoAddress
			return b
		}, exchange.CodeNotAuthenticated, http.StatusUnauthorized, "invalid signature"},
		{"wallet signer is not the address", func() exchange.WalletLoginRequest {
			b := w.signedLogin(demo, 19, soon)
			b.Address = sandbox.BuilderAddress
			return b
		}, exchange.CodeNotAuthenticated, http.StatusUnauthorized, "invalid signature"},
		{"wallet expiration differs from signed", func() exchange.WalletLoginRequest {
			b := w.signedLogin(demo, 20, soon)
			b.Signature.Expiration = strconv.FormatInt(soon.Add(-time.Second).UnixNano(), 10)
			return b
		}, exchange.CodeNotAuthenticated, http.StatusUnauthorized, "invalid signature"},
		{"wallet other chain id", func() exchange.WalletLoginRequest {
			b := w.signedLogin(demo, 21, soon)
			b.Signature.ChainID = 326
			return b
		}, exchange.CodeBadChainID, http.StatusBadRequest, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := post(c.body())
			wantAPIError(t, err, c.code, c.status)
			if c.reason != "" {
				wantLoginReason(t, err, c.reason)
			}
		})
	}
}

// TestRulesDeposit covers SPEC.md §4.5, §4.6 and §5 (deposit credentials).
func TestRulesDeposit(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	apiKey := func(key string) *exchange.Client { return w.Client(exchange.Options{APIKey: key}) }
	session := func(key string) *exchange.Client { return w.Login(key, exchange.Options{}) }

	t.Run("no credential", func(t *testing.T) {
		// The client refuses before sending; the sandbox refuses too.
		_, err := w.Client(exchange.Options{}).DepositAddresses(ctx)
		wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
		wantAPIError(t, w.raw(http.MethodGet, exchange.PathDepositAddresses, nil, nil), exchange.CodeNotAuthenticated, http.StatusUnauthorized)
		wantAPIError(t, w.raw(http.MethodPost, exchange.PathGenerateAddress, exchange.GenerateAddressRequest{Chain: "SOLANA"}, nil), exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	})
	t.Run("api key unknown", func(t *testing.T) {
		_, err := apiKey("sandbox-no-such-key").DepositAddresses(ctx)
		wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	})
	t.Run("cookie without account id", func(t *testing.T) {
		rec := &recorder{Edit: func(r *http.Request) { r.Header.Del(config.HeaderAccountID) }}
		c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
		_, err := c.DepositAddresses(ctx)
		wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	})
	t.Run("account id of another account", func(t *testing.T) {
		rec := &recorder{Edit: func(r *http.Request) {
			if r.Header.Get(config.HeaderAccountID) != "" {
				r.Header.Set(config.HeaderAccountID, sandbox.NoChainAccountID)
			}
		}}
		c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
		_, err := c.DepositAddresses(ctx)
		wantAPIError(t, err, exchange.CodeForbidden, http.StatusForbidden)
	})
	t.Run("no chain account", func(t *testing.T) {
		for _, c := range []*exchange.Client{apiKey(sandbox.NoChainAPIKey), session(sandbox.NoChainAPIKey)} {
			_, err := c.DepositAddresses(ctx)
			wantAPIError(t, err, exchange.CodeNoChainAccount, http.StatusForbidden)
			_, err = c.GenerateAddress(ctx, "SOLANA")
			wantAPIError(t, err, exchange.CodeNoChainAccount, http.StatusForbidden)
		}
	})
	t.Run("bridge disabled", func(t *testing.T) {
		w.Ex.SetBridgeEnabled(sandbox.DemoAccountID, false)
		defer w.Ex.SetBridgeEnabled(sandbox.DemoAccountID, true)
		for _, c := range []*exchange.Client{apiKey(sandbox.DemoAPIKey), session(sandbox.DemoAPIKey)} {
			_, err := c.DepositAddresses(ctx)
			wantAPIError(t, err, exchange.CodeBridgeDisabled, http.StatusForbidden)
			_, err = c.GenerateAddress(ctx, "SOLANA")
			wantAPIError(t, err, exchange.CodeBridgeDisabled, http.StatusForbidden)
		}
	})
	for _, c := range []struct{ name, chain string }{
		{"unsupported chain", "DOGE"},
		{"chain of another environment", "BSC_TEST"},
		{"look-alike chain name", "ſolana"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := apiKey(sandbox.DemoAPIKey).GenerateAddress(ctx, c.chain)
			wantAPIError(t, err, exchange.CodeUnsupportedChain, http.StatusBadRequest)
		})
	}
	t.Run("chain missing", func(t *testing.T) {
		_, err := apiKey(sandbox.DemoAPIKey).GenerateAddress(ctx, "")
		wantAPIError(t, err, exchange.CodeMalformed, http.StatusBadRequest)
	})
}

// TestRulesBridgeNeedsSession covers SPEC.md §5: X-API-Key alone does not
// open the bridge endpoints (4.7 to 4.10).
func TestRulesBridgeNeedsSession(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	s := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	q, err := w.Quote(s, sandbox.DestCompleted, "BASE", "10")
	if err != nil {
		t.Fatal(err)
	}
	// The client has no session to send, so it refuses before sending...
	c := w.Client(exchange.Options{APIKey: sandbox.DemoAPIKey})
	_, err = c.WithdrawalInfo(ctx)
	wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	_, err = c.WithdrawalStatus(ctx, q.QuoteID)
	wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	// ...and the sandbox refuses the key on every bridge endpoint.
	key := http.Header{exchange.HeaderAPIKey: {sandbox.DemoAPIKey}}
	for _, e := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, exchange.PathWithdrawalInfo, nil},
		{http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{ToAddress: sandbox.DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: "10"}},
		{http.MethodPost, exchange.PathWithdraw, exchange.WithdrawRequest{QuoteID: q.QuoteID}},
		{http.MethodGet, exchange.PathWithdrawalStatus + "?quote_id=" + q.QuoteID, nil},
	} {
		wantAPIError(t, w.raw(e.method, e.path, e.body, key), exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	}
}

// TestRulesQuote covers SPEC.md §4.8, §7 and §8 (quote rejections).
func TestRulesQuote(t *testing.T) {
	cases := []struct {
		name                       string
		to, chain, in, out, amount string
		code                       exchange.Code
		status                     int
	}{
		{"route unsupported: USDC token_in", sandbox.DestCompleted, "BASE", "USDC", "USDC", "10", exchange.CodeRouteUnsupported, http.StatusBadRequest},
		{"route unsupported: unknown chain", sandbox.DestCompleted, "DOGE", "USDT", "USDT", "10", exchange.CodeRouteUnsupported, http.StatusBadRequest},
		{"route unsupported: token_out not paid on chain", sandbox.DestTron, "TRON", "USDT", "USDC", "10", exchange.CodeRouteUnsupported, http.StatusBadRequest},
		{"below fee", sandbox.DestCompleted, "BASE", "USDT", "USDT", "1", exchange.CodeBelowFee, http.StatusBadRequest},
		{"equal to fee", sandbox.DestCompleted, "BASE", "USDT", "USDT", "1.5", exchange.CodeBelowFee, http.StatusBadRequest},
		{"limit reached: daily", sandbox.DestCompleted, "BASE", "USDT", "USDT", "5000.000001", exchange.CodeLimitReached, http.StatusForbidden},
		{"limit reached: bridge liquidity", sandbox.DestCompleted, "KAIA", "USDT", "USDT", "1000.01", exchange.CodeLimitReached, http.StatusForbidden},
		{"bad address: Solana address on EVM chain", sandbox.DestSolana, "BASE", "USDT", "USDT", "10", exchange.CodeBadAddress, http.StatusBadRequest},
		{"bad address: EVM address on Tron", sandbox.DestCompleted, "TRON", "USDT", "USDT", "10", exchange.CodeBadAddress, http.StatusBadRequest},
		{"bad address: bad EIP-55 checksum", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc", "BASE", "USDT", "USDT", "10", exchange.CodeBadAddress, http.StatusBadRequest},
		{"not in address book", sandbox.BridgeFundingAddress, "BASE", "USDT", "USDT", "10", exchange.CodeNotInAddressBook, http.StatusForbidden},
		{"amount with 7 decimals", sandbox.DestCompleted, "BASE", "USDT", "USDT", "10.1234567", exchange.CodeMalformed, http.StatusBadRequest},
	}
	w := newWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Quote(ctx, exchange.QuoteRequest{ToAddress: tc.to, Chain: tc.chain, TokenIn: tc.in, TokenOut: tc.out, Amount: tc.amount})
			wantAPIError(t, err, tc.code, tc.status)
		})
	}
	t.Run("bridge disabled", func(t *testing.T) {
		w.Ex.SetBridgeEnabled(sandbox.DemoAccountID, false)
		defer w.Ex.SetBridgeEnabled(sandbox.DemoAccountID, true)
		_, err := w.Quote(c, sandbox.DestCompleted, "BASE", "10")
		wantAPIError(t, err, exchange.CodeBridgeDisabled, http.StatusForbidden)
		_, err = c.WithdrawalInfo(ctx)
		wantAPIError(t, err, exchange.CodeBridgeDisabled, http.StatusForbidden)
	})
	// The limits are the edges, not near them.
	for _, ok := range []struct{ chain, amount string }{{"BASE", "5000"}, {"KAIA", "1000"}, {"BASE", "1.500001"}} {
		if _, err := w.Quote(c, sandbox.DestCompleted, ok.chain, ok.amount); err != nil {
			t.Errorf("quote of %s on %s: %v", ok.amount, ok.chain, err)
		}
	}
}
