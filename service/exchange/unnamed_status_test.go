package exchange_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestUnnamedStatusOnEveryCall: every call answered with a 4xx SPEC.md §7
// and D7 give no meaning (418, 422, 451, a gateway's 408), or a 1xx or
// 3xx (a 101, a 303), without a code the client knows, comes back as that
// refusal, with its status in its words: never a "not found" (a status's
// 404 is "never executed" past the margin), never retried as a 5xx is,
// and, to a withdraw, never a refusal for certain: its outcome is unknown
// (exchange.OutcomeUnknown), as it says nothing of whether it executed.
// The login's is a failed login.
func TestUnnamedStatusOnEveryCall(t *testing.T) {
	for _, status := range []int{http.StatusSwitchingProtocols, http.StatusSeeOther, http.StatusRequestTimeout, http.StatusTeapot, http.StatusUnprocessableEntity, http.StatusUnavailableForLegalReasons} {
		ex := sandbox.New(sandbox.Options{})
		var past atomic.Bool // the login, made by the sandbox
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !past.Load() && r.URL.Path == exchange.PathAPIKeyLogin {
				ex.ServeHTTP(w, r)
				return
			}
			answer(status, `{"code":4321,"message":"not processed"}`)(w, r)
		}))
		c := loggedIn(t, config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID))
		past.Store(true)
		ctx := context.Background()
		calls := map[string]func() error{
			"time":             func() error { _, err := c.ServerTime(ctx); return err },
			"builder":          func() error { _, err := c.AuthorizeBuilder(ctx, exchange.BuilderAuthorizeRequest{}); return err },
			"deposit":          func() error { _, err := c.DepositAddresses(ctx); return err },
			"generate-address": func() error { _, err := c.GenerateAddress(ctx, "ARBITRUM"); return err },
			"withdrawal-info":  func() error { _, err := c.WithdrawalInfo(ctx); return err },
			"quote":            func() error { _, err := c.Quote(ctx, exchange.QuoteRequest{}); return err },
			"status":           func() error { _, err := c.WithdrawalStatus(ctx, "q-1"); return err },
			"withdraw":         func() error { _, err := c.Withdraw(ctx, exchange.WithdrawRequest{QuoteID: "q-1"}); return err },
			"login":            func() error { _, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); return err },
		}
		for name, call := range calls {
			err := call()
			ae, ok := errors.AsType[*exchange.APIError](err)
			switch {
			case !ok || ae.Status != status:
				t.Errorf("%d to %s: %v; want the answer's refusal", status, name, err)
			case errors.Is(err, exchange.ErrNotFound) || exchange.Retryable(err) || exchange.NotSent(err):
				t.Errorf("%d to %s: %v taken as a not-found, a retry or not sent", status, name, err)
			case !strings.Contains(exchange.Explain(err).Error(), http.StatusText(status)) && !strings.Contains(exchange.Explain(err).Error(), "not processed"):
				t.Errorf("%d to %s: said %q", status, name, exchange.Explain(err))
			case name == "withdraw" && !exchange.OutcomeUnknown(err):
				t.Errorf("%d to a withdraw: %v taken as a refusal for certain", status, err)
			}
		}
		srv.Close()
	}
}

// TestNamedRefusalsStayCertain: a 4xx whose status the interface names, or
// whose code the client knows whatever its status, is a refusal of a
// withdraw for certain, as before.
func TestNamedRefusalsStayCertain(t *testing.T) {
	for _, a := range []http.HandlerFunc{
		answer(http.StatusBadRequest, `{"code":4321,"message":"bad"}`),
		answer(http.StatusForbidden, `{}`),
		answer(http.StatusGone, `{}`),
		answer(http.StatusUnprocessableEntity, `{"code":4000,"message":"insufficient balance"}`),
	} {
		env, _ := scriptedExchange(t, a)
		_, err := loggedIn(t, env).Withdraw(context.Background(), exchange.WithdrawRequest{QuoteID: "q-1"})
		if err == nil || exchange.OutcomeUnknown(err) || exchange.UnnamedRefusal(err) {
			t.Errorf("%v: want a refusal for certain", err)
		}
	}
}
