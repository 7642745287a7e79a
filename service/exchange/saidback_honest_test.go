package exchange_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// structuredService answers a login with cookie and account, a status
// record whose tx id is txID and destination the demo address, a builder
// authorization with builderKey, and with status 400 saying message for
// the deposit addresses.
type structuredService struct {
	cookie, account, txID, builderKey, message string
}

func (s structuredService) client(t *testing.T) *exchange.Client {
	t.Helper()
	var env config.Environment
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var answer map[string]any
		switch r.URL.Path {
		case exchange.PathAPIKeyLogin:
			http.SetCookie(w, &http.Cookie{Name: env.Cookie(), Value: s.cookie})
			w.Header().Set(env.AccountHeader(), s.account)
			answer = map[string]any{"status": "success", "location": "/", "funding_account_address": sandbox.DemoAddress}
		case exchange.PathWithdrawalStatus:
			answer = map[string]any{"quote_id": r.URL.Query().Get("quote_id"), "tx_id": s.txID, "state": "COMPLETED",
				"chain": "ARBITRUM", "token_out": "USDT", "pay_amount": "100.5", "receive_amount": "100.1", "fee": "0.4",
				"destination": sandbox.DemoAddress, "withdraw_tx_hash": "0x8f3c1d2e4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4",
				"created_at": "2026-11-30T03:00:00Z", "updated_at": "2026-11-30T03:01:00Z"}
		case exchange.PathBuilderAuthorize:
			answer = map[string]any{"api_key": s.builderKey}
		default:
			w.WriteHeader(http.StatusBadRequest)
			answer = map[string]any{"code": 1003, "message": s.message, "status": 400}
		}
		json.NewEncoder(w).Encode(answer)
	}))
	t.Cleanup(srv.Close)
	env = config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
	return exchange.New(env, exchange.Options{Retry: exchange.RetryPolicy{Attempts: 1, Sleep: noSleep}})
}

// A 48-character API key holding a 20-character account id, a cookie of 90
// holding the demo address, as credentials the spec does not rule out are.
const (
	structuredAccount = "7f3a9c1e0b2d4c68a5e1"
	structuredKey     = "AK-" + structuredAccount + "-Qm9rZXlzZWNyZXQxMjM0NTY3"
	structuredCookie  = "v1." + sandbox.DemoAddress + ".c2lnbmF0dXJlb2Z0aGVzZXNzaW9uY29va2llMDEyMzQ1"
)

// TestHonestAnswersHoldingPartOfACredential: a credential with structure
// (an API key holding the account id, a cookie holding the funding
// address, a builder's key sharing the session key's prefix) logs in, its
// status records carrying the account id or the address are taken, and a
// builder authorization's key is said: a run of 12 refused every login, and
// the authorization once it was made (a retry made a second).
func TestHonestAnswersHoldingPartOfACredential(t *testing.T) {
	const prefix = "svcwallet-live-key-" // 19 characters of each key of the deployment
	for name, tc := range map[string]struct {
		key     string
		service structuredService
		quoteID string
	}{
		"an API key holding the account id": {structuredKey,
			structuredService{cookie: "CK-session-cookie-of-test-1", account: structuredAccount, txID: "tx-" + structuredAccount + "-9"},
			"q-" + structuredAccount + "-1"},
		"a cookie holding the funding address": {"AK-some-api-key-of-test-1",
			structuredService{cookie: structuredCookie, account: "acct-1", txID: "tx-9"}, "q-1"},
		"a builder's key sharing the session key's prefix": {prefix + "0b2d4c68a5e1f09b3c7d",
			structuredService{cookie: "CK-session-cookie-of-test-1", account: "acct-1", txID: "tx-9", builderKey: prefix + "e4a6b8c0d1e2f3a4b5c6"},
			"q-1"},
	} {
		t.Run(name, func(t *testing.T) {
			c := tc.service.client(t)
			if _, err := c.Login(ctx, exchange.APIKey(tc.key)); err != nil {
				t.Fatalf("the login was refused: %v", err)
			}
			if w, err := c.WithdrawalStatus(ctx, tc.quoteID); err != nil || w.TxID != tc.service.txID {
				t.Fatalf("the status record was refused: %+v, %v", w, err)
			}
			if tc.service.builderKey == "" {
				return
			}
			res, err := c.AuthorizeBuilder(ctx, exchange.BuilderAuthorizeRequest{BuilderAPIKeySigner: sandbox.DemoAddress})
			if err != nil || res.APIKey != tc.service.builderKey {
				t.Fatalf("the authorization made was refused: %q, %v", res.APIKey, err)
			}
		})
	}
}

// TestHalfOfACredentialSaidBack: a run of half a credential longer than 24
// characters is said back, one character less is not; an error's message
// hides a run of 12 of it (a mask refuses nothing).
func TestHalfOfACredentialSaidBack(t *testing.T) {
	for name, tc := range map[string]struct {
		key, cookie, run string
		refused          bool
	}{
		"half the API key":             {key: structuredKey, run: structuredKey[3:27], refused: true},
		"half the API key, less one":   {key: structuredKey, run: structuredKey[3:26]},
		"half the cookie":              {key: "AK-some-api-key-of-test-1", cookie: structuredCookie, run: structuredCookie[1:46], refused: true},
		"half the cookie, less one":    {key: "AK-some-api-key-of-test-1", cookie: structuredCookie, run: structuredCookie[1:45]},
		"half a 25-character API key":  {key: "AKlive0123456789secretkey", run: "0123456789sec", refused: true},
		"12 of a 25-character API key": {key: "AKlive0123456789secretkey", run: "0123456789se"},
	} {
		t.Run(name, func(t *testing.T) {
			cookie := tc.cookie
			if cookie == "" {
				cookie = "CK-session-cookie-of-test-1"
			}
			c := structuredService{cookie: cookie, account: "acct-1", txID: "tx:" + tc.run,
				message: "invalid key " + strings.ToUpper(tc.key[5:17]) + "… (see docs)"}.client(t)
			if _, err := c.Login(ctx, exchange.APIKey(tc.key)); err != nil {
				t.Fatalf("the login was refused: %v", err)
			}
			_, err := c.WithdrawalStatus(ctx, "q-1")
			var se *exchange.ShapeError
			if refused := errors.As(err, &se); refused != tc.refused {
				t.Fatalf("a status record holding %d characters of a credential of %d: %v; want refused %v",
					len(tc.run), max(len(tc.key), len(tc.cookie)), err, tc.refused)
			}
			if err != nil && (strings.Contains(err.Error(), tc.run) || se.Field != "tx id") {
				t.Fatalf("the refusal says the run back or names no field: %v", err)
			}
			_, err = c.DepositAddresses(ctx)
			if err == nil || !strings.Contains(err.Error(), "invalid key [your credential, not shown]… (see docs)") {
				t.Fatalf("12 characters of the key in a message are not masked: %v", err)
			}
		})
	}
}
