package exchange_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// The bridge and builder rules of the exchange, in the same style as
// rules_test.go: each rejection is broken on purpose and the error checked.

// TestRulesWithdraw covers SPEC.md §4.9, §4.11, §7 and §8 (execution
// rejections). Each case runs in a fresh sandbox, and no rejection moves
// money.
func TestRulesWithdraw(t *testing.T) {
	demoKey := sandbox.DemoPrivateKey
	type setup struct {
		w   *world
		c   *exchange.Client // the demo account's session
		q   exchange.Quote   // a fresh 10 USDT quote to DestCompleted on BASE
		key signer.Key       // the demo key
	}
	cases := []struct {
		name    string
		request func(s setup) (*exchange.Client, exchange.WithdrawRequest)
		code    exchange.Code
		status  int
		balance string // the demo account's balance afterwards
	}{
		{"tampered amount", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			return s.c, s.w.signWithdraw(s.c, s.q, s.key, func(tr *signer.Transfer) { tr.NumTokens++ })
		}, exchange.CodeSignatureMismatch, http.StatusForbidden, "10000"},
		{"tampered destination account", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			return s.c, s.w.signWithdraw(s.c, s.q, s.key, func(tr *signer.Transfer) { tr.ToAccount = common.HexToAddress(sandbox.DestCompleted) })
		}, exchange.CodeSignatureMismatch, http.StatusForbidden, "10000"},
		{"wrong signer: builder key", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			return s.c, s.w.signWithdraw(s.c, s.q, mustKey(t, sandbox.BuilderPrivateKey), nil)
		}, exchange.CodeUnauthorizedSigner, http.StatusForbidden, "10000"},
		{"wrong signer: trading sub-account", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			return s.c, s.w.signWithdraw(s.c, s.q, mustKey(t, sandbox.TradingSignerPrivateKey), nil)
		}, exchange.CodeUnauthorizedSigner, http.StatusForbidden, "10000"},
		{"wrong signer: claims the owner, signed by another key", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			req := s.w.signWithdraw(s.c, s.q, mustKey(t, sandbox.BuilderPrivateKey), nil)
			req.Signature.Signer = sandbox.DemoAddress
			return s.c, req
		}, exchange.CodeSignatureMismatch, http.StatusForbidden, "10000"},
		{"other account's quote", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			other := s.w.Login(sandbox.NoChainAPIKey, exchange.Options{})
			theirs, err := s.w.Quote(other, sandbox.DestCompleted, "BASE", "10")
			if err != nil {
				t.Fatal(err)
			}
			return s.c, s.w.signWithdraw(s.c, theirs, s.key, nil)
		}, exchange.CodeNotFound, http.StatusNotFound, "10000"},
		{"unknown quote", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			req := s.w.signWithdraw(s.c, s.q, s.key, nil)
			req.QuoteID = "q-nope"
			return s.c, req
		}, exchange.CodeNotFound, http.StatusNotFound, "10000"},
		{"expired quote", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			s.w.Clock.Set(s.q.ExpiresAt.Add(time.Nanosecond))
			return s.c, s.w.signWithdraw(s.c, s.q, s.key, nil)
		}, exchange.CodeQuoteExpired, http.StatusGone, "10000"},
		{"address removed from the book after quoting", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			s.w.Ex.RemoveFromAddressBook(sandbox.DemoAccountID, sandbox.DestCompleted)
			return s.c, s.w.signWithdraw(s.c, s.q, s.key, nil)
		}, exchange.CodeNotInAddressBook, http.StatusForbidden, "10000"},
		{"flagged by screening", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			q, err := s.w.Quote(s.c, sandbox.DestFlagged, "BASE", "10")
			if err != nil {
				t.Fatal(err)
			}
			return s.c, s.w.signWithdraw(s.c, q, s.key, nil)
		}, exchange.CodeAddressFlagged, http.StatusForbidden, "10000"},
		{"insufficient balance", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			nc := s.w.Login(sandbox.NoChainAPIKey, exchange.Options{})
			q, err := s.w.Quote(nc, sandbox.DestCompleted, "BASE", "100.000001")
			if err != nil {
				t.Fatal(err)
			}
			return nc, s.w.signWithdraw(nc, q, mustKey(t, sandbox.NoChainPrivateKey), nil)
		}, exchange.CodeInsufficientBalance, http.StatusBadRequest, "10000"},
		{"daily limit", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			q1, err1 := s.w.Quote(s.c, sandbox.DestCompleted, "BASE", "3000")
			q2, err2 := s.w.Quote(s.c, sandbox.DestCompleted, "BASE", "3000")
			if err := errors.Join(err1, err2); err != nil {
				t.Fatal(err)
			}
			if _, err := s.c.Withdraw(ctx, s.w.signWithdraw(s.c, q1, s.key, nil)); err != nil {
				t.Fatal(err)
			}
			return s.c, s.w.signWithdraw(s.c, q2, s.key, nil)
		}, exchange.CodeDailyLimit, http.StatusForbidden, "7000"},
		{"bridge liquidity at execution", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			q1, err1 := s.w.Quote(s.c, sandbox.DestCompleted, "KAIA", "600")
			q2, err2 := s.w.Quote(s.c, sandbox.DestCompleted, "KAIA", "600")
			if err := errors.Join(err1, err2); err != nil {
				t.Fatal(err)
			}
			if _, err := s.c.Withdraw(ctx, s.w.signWithdraw(s.c, q1, s.key, nil)); err != nil {
				t.Fatal(err)
			}
			return s.c, s.w.signWithdraw(s.c, q2, s.key, nil)
		}, exchange.CodeLimitReached, http.StatusForbidden, "9400"},
		{"same quote, another nonce", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			if _, err := s.c.Withdraw(ctx, s.w.signWithdraw(s.c, s.q, s.key, nil)); err != nil {
				t.Fatal(err)
			}
			return s.c, s.w.signWithdraw(s.c, s.q, s.key, nil)
		}, exchange.CodeQuoteUsed, http.StatusConflict, "9990"},
		{"signer nonce reused across quotes", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			first := s.w.signWithdraw(s.c, s.q, s.key, nil)
			if _, err := s.c.Withdraw(ctx, first); err != nil {
				t.Fatal(err)
			}
			q2, err := s.w.Quote(s.c, sandbox.DestCompleted, "BASE", "10")
			if err != nil {
				t.Fatal(err)
			}
			return s.c, s.w.signWithdraw(s.c, q2, s.key, func(tr *signer.Transfer) { tr.Nonce = first.Signature.Nonce })
		}, exchange.CodeDuplicateSignature, http.StatusBadRequest, "9990"},
		{"expiration over 30 days", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			return s.c, s.w.signWithdraw(s.c, s.q, s.key, func(tr *signer.Transfer) {
				tr.Expiration = t0.Add(30*24*time.Hour + time.Second).UnixNano()
			})
		}, exchange.CodeExpirationTooFar, http.StatusBadRequest, "10000"},
		{"signature expired", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			return s.c, s.w.signWithdraw(s.c, s.q, s.key, func(tr *signer.Transfer) { tr.Expiration = t0.UnixNano() })
		}, exchange.CodeSignatureExpired, http.StatusForbidden, "10000"},
		{"chain id other than the environment's", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			req := s.w.signWithdraw(s.c, s.q, s.key, nil)
			req.Signature.ChainID = 325
			return s.c, req
		}, exchange.CodeBadChainID, http.StatusBadRequest, "10000"},
		{"v 29", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			req := s.w.signWithdraw(s.c, s.q, s.key, nil)
			req.Signature.V = 29
			return s.c, req
		}, exchange.CodeBadV, http.StatusForbidden, "10000"},
		{"high s", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			req := s.w.signWithdraw(s.c, s.q, s.key, nil)
			highS(&req.Signature.S, &req.Signature.V)
			return s.c, req
		}, exchange.CodeHighS, http.StatusForbidden, "10000"},
		{"r too long", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			req := s.w.signWithdraw(s.c, s.q, s.key, nil)
			req.Signature.R += "00"
			return s.c, req
		}, exchange.CodeBadRS, http.StatusForbidden, "10000"},
		{"bridge disabled at execution", func(s setup) (*exchange.Client, exchange.WithdrawRequest) {
			req := s.w.signWithdraw(s.c, s.q, s.key, nil)
			s.w.Ex.SetBridgeEnabled(sandbox.DemoAccountID, false)
			return s.c, req
		}, exchange.CodeBridgeDisabled, http.StatusForbidden, "10000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, sandbox.Options{})
			c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
			q, err := w.Quote(c, sandbox.DestCompleted, "BASE", "10")
			if err != nil {
				t.Fatal(err)
			}
			wc, req := tc.request(setup{w: w, c: c, q: q, key: mustKey(t, demoKey)})
			_, err = wc.Withdraw(ctx, req)
			wantAPIError(t, err, tc.code, tc.status)
			w.wantBalance(sandbox.DemoAccountID, tc.balance)
			w.wantBalance(sandbox.NoChainAccountID, sandbox.NoChainBalance)
		})
	}
	// The sentinel names screens test with.
	t.Run("convenience errors", func(t *testing.T) {
		for _, p := range []struct {
			code exchange.Code
			err  error
		}{
			{exchange.CodeNotFound, exchange.ErrNotFound}, {exchange.CodeQuoteExpired, exchange.ErrQuoteExpired},
			{exchange.CodeNotInAddressBook, exchange.ErrNotInAddressBook}, {exchange.CodeAddressFlagged, exchange.ErrFlagged},
			{exchange.CodeInsufficientBalance, exchange.ErrInsufficientBalance}, {exchange.CodeDailyLimit, exchange.ErrDailyLimit},
			{exchange.CodeNotAuthenticated, exchange.ErrUnauthenticated}, {exchange.CodeRateLimited, exchange.ErrRateLimited},
		} {
			var err error = &exchange.APIError{Status: p.code.Status(), Code: p.code}
			if !errors.Is(err, p.err) {
				t.Errorf("code %d does not match its sentinel", p.code)
			}
		}
	})
}

// TestRulesStatus covers SPEC.md §4.10 and §7: an unknown quote and another
// account's are the same 404.
func TestRulesStatus(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	demo := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	other := w.Login(sandbox.NoChainAPIKey, exchange.Options{})
	mine, err := w.Quote(demo, sandbox.DestCompleted, "BASE", "10")
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := w.Quote(other, sandbox.DestCompleted, "BASE", "10")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    *exchange.Client
		id   string
	}{
		{"unknown quote", demo, "q-unknown"},
		{"quote id with query characters", demo, mine.QuoteID + "&x=1"},
		{"other account's quote", demo, theirs.QuoteID},
		{"other account's quote, the other way", other, mine.QuoteID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.c.WithdrawalStatus(ctx, tc.id)
			wantAPIError(t, err, exchange.CodeNotFound, http.StatusNotFound)
			if !errors.Is(err, exchange.ErrNotFound) {
				t.Fatal("not ErrNotFound")
			}
		})
	}
	t.Run("quote id missing", func(t *testing.T) {
		_, err := demo.WithdrawalStatus(ctx, "")
		wantAPIError(t, err, exchange.CodeMalformed, http.StatusBadRequest)
	})
}

// TestRulesBuilder covers SPEC.md §4.4 and §8 (builder authorization).
func TestRulesBuilder(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	c := w.Client(exchange.Options{})
	demo := mustKey(t, sandbox.DemoPrivateKey)
	bot := mustKey(t, sandbox.NoChainPrivateKey).Address()
	week := t0.Add(7 * 24 * time.Hour)
	valid := func(perms string, nonce uint32) exchange.BuilderAuthorizeRequest {
		return w.builderRequest(demo, bot, perms, nonce, week)
	}
	cases := []struct {
		name   string
		req    func() exchange.BuilderAuthorizeRequest
		code   exchange.Code
		status int
	}{
		{"partial fields: label only", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 10)
			r.BuilderAPIKeyLabel = "bot"
			return r
		}, exchange.CodeBuilderFields, http.StatusBadRequest},
		{"partial fields: signer and permissions without label", func() exchange.BuilderAuthorizeRequest {
			r := valid("Trade", 11)
			r.BuilderAPIKeyLabel = ""
			return r
		}, exchange.CodeBuilderFields, http.StatusBadRequest},
		{"partial fields: signer only", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 12)
			r.BuilderAPIKeySigner = bot.Hex()
			return r
		}, exchange.CodeBuilderFields, http.StatusBadRequest},
		{"fee with 5 decimals", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 13)
			r.MaxFuturesFeeRate = "0.00001"
			return r
		}, exchange.CodeBadFeeRate, http.StatusBadRequest},
		{"negative fee", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 14)
			r.MaxSpotFeeRate = "-0.1"
			return r
		}, exchange.CodeBuilderFeeNegative, http.StatusBadRequest},
		{"fee over uint32", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 15)
			r.MaxSpotFeeRate = "429496.7296"
			return r
		}, exchange.CodeBuilderFeeOverLimit, http.StatusBadRequest},
		{"non-canonical permissions", func() exchange.BuilderAuthorizeRequest {
			r := valid("Admin&Trade", 16)
			r.BuilderAPIKeyPermissions = "Trade&Admin"
			return r
		}, exchange.CodeBadPermissions, http.StatusBadRequest},
		{"unknown permission", func() exchange.BuilderAuthorizeRequest {
			r := valid("Trade", 17)
			r.BuilderAPIKeyPermissions = "Trade&Fly"
			return r
		}, exchange.CodeBadPermissions, http.StatusBadRequest},
		{"repeated permission", func() exchange.BuilderAuthorizeRequest {
			r := valid("Trade", 18)
			r.BuilderAPIKeyPermissions = "Trade&Trade"
			return r
		}, exchange.CodeBadPermissions, http.StatusBadRequest},
		{"expiration over 30 days", func() exchange.BuilderAuthorizeRequest {
			return w.builderRequest(demo, bot, "", 19, t0.Add(30*24*time.Hour+time.Second))
		}, exchange.CodeExpirationTooFar, http.StatusBadRequest},
		{"expiration in the past", func() exchange.BuilderAuthorizeRequest {
			return w.builderRequest(demo, bot, "Trade", 20, t0.Add(-time.Second))
		}, exchange.CodeSignatureExpired, http.StatusForbidden},
		{"wrong signer: builder key", func() exchange.BuilderAuthorizeRequest {
			return w.builderRequest(mustKey(t, sandbox.BuilderPrivateKey), bot, "", 21, week)
		}, exchange.CodeUnauthorizedSigner, http.StatusForbidden},
		{"wrong signer: claims the owner, signed by another key", func() exchange.BuilderAuthorizeRequest {
			r := w.builderRequest(mustKey(t, sandbox.BuilderPrivateKey), bot, "Trade", 22, week)
			r.Signature.Signer = sandbox.DemoAddress
			return r
		}, exchange.CodeSignatureMismatch, http.StatusForbidden},
		{"unknown main account", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 23)
			r.MainAccountID = sandbox.DestCompleted
			return r
		}, exchange.CodeUnauthorizedSigner, http.StatusForbidden},
		{"fee differs from signed", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 24)
			r.MaxFuturesFeeRate = "0.2"
			return r
		}, exchange.CodeSignatureMismatch, http.StatusForbidden},
		{"permissions differ from signed", func() exchange.BuilderAuthorizeRequest {
			r := valid("Trade", 25)
			r.BuilderAPIKeyPermissions = "Admin&Trade"
			return r
		}, exchange.CodeSignatureMismatch, http.StatusForbidden},
		{"v 29", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 26)
			r.Signature.V = 29
			return r
		}, exchange.CodeBadV, http.StatusForbidden},
		{"s not hex", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 27)
			r.Signature.S = r.Signature.S[:65] + "g"
			return r
		}, exchange.CodeBadRS, http.StatusForbidden},
		{"high s", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 30)
			highS(&r.Signature.S, &r.Signature.V)
			return r
		}, exchange.CodeHighS, http.StatusForbidden},
		{"other chain id", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 28)
			r.Signature.ChainID = 326
			return r
		}, exchange.CodeBadChainID, http.StatusBadRequest},
		{"builder not an address", func() exchange.BuilderAuthorizeRequest {
			r := valid("", 29)
			r.BuilderAccountID = "builder"
			return r
		}, exchange.CodeMalformed, http.StatusBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.AuthorizeBuilder(ctx, tc.req())
			wantAPIError(t, err, tc.code, tc.status)
		})
	}
	t.Run("replayed nonce", func(t *testing.T) {
		if _, err := c.AuthorizeBuilder(ctx, valid("", 100)); err != nil {
			t.Fatal(err)
		}
		_, err := c.AuthorizeBuilder(ctx, valid("", 100))
		wantAPIError(t, err, exchange.CodeDuplicateSignature, http.StatusBadRequest)
		// The nonce is spent for the other mode's message too.
		_, err = c.AuthorizeBuilder(ctx, valid("Trade", 100))
		wantAPIError(t, err, exchange.CodeDuplicateSignature, http.StatusBadRequest)
	})
	// None of the rejected requests above spent its nonce.
	t.Run("rejections spend no nonce", func(t *testing.T) {
		for n := uint32(10); n <= 30; n++ {
			if _, err := c.AuthorizeBuilder(ctx, valid("", n)); err != nil {
				t.Fatalf("nonce %d: %v", n, err)
			}
		}
	})
}

// TestExplainSignatureExpiredLoopback: the sandbox answers an expired
// signature as the published service does, 403 with code 2001, and the user
// reads that it expired and to check the clock, in the console and the
// builder command alike.
func TestExplainSignatureExpiredLoopback(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	req := w.builderRequest(mustKey(t, sandbox.DemoPrivateKey), mustKey(t, sandbox.NoChainPrivateKey).Address(), "", 1, t0.Add(-time.Second))
	_, err := w.Client(exchange.Options{}).AuthorizeBuilder(ctx, req)
	wantAPIError(t, err, exchange.CodeSignatureExpired, http.StatusForbidden)
	for _, explain := range []func(error) error{exchange.Explain, builder.Explain} {
		if got := explain(err).Error(); !strings.HasPrefix(got, "The signature expired before it arrived: check the computer's clock") {
			t.Errorf("403 2001 explained as %q", got)
		}
	}
}
