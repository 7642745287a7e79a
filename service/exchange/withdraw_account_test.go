package exchange_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawRetriedOnlyAsItsAccount: a withdraw's retry goes only as the
// account its first attempt went as. A login as another account made in
// the pause between them (a login made meanwhile on the same client) was
// sent the signed request, which then went, was answered and journaled as
// that account's; it is not sent, and the outcome stays unknown, since the
// first attempt may have executed.
func TestWithdrawRetriedOnlyAsItsAccount(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	var first atomic.Bool
	var asked []string // the account id each withdraw attempt went as
	through := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == exchange.PathWithdraw {
			asked = append(asked, req.Header.Get(config.HeaderAccountID))
			if first.CompareAndSwap(true, false) {
				return &http.Response{StatusCode: http.StatusServiceUnavailable, Body: io.NopCloser(strings.NewReader(`{}`)),
					Header: http.Header{}, Request: req}, nil
			}
		}
		return http.DefaultTransport.RoundTrip(req)
	})
	var c *exchange.Client
	loginMeanwhile := func(context.Context, time.Duration) error {
		_, err := c.Login(ctx, exchange.APIKey(sandbox.NoChainAPIKey))
		return err
	}
	c = w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: &http.Client{Transport: through},
		Retry: exchange.RetryPolicy{Attempts: 3, Sleep: loginMeanwhile}})
	q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "5")
	if err != nil {
		t.Fatal(err)
	}
	req := w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil)
	first.Store(true)
	_, err = c.Withdraw(ctx, req)
	if !exchange.OutcomeUnknown(err) || !errors.As(err, new(*exchange.OtherAccountError)) {
		t.Fatalf("a retry after a login as another account: %v, want an unknown outcome, not asked as it", err)
	}
	if len(asked) != 1 || asked[0] != sandbox.DemoAccountID {
		t.Fatalf("withdraw attempts went as %q; want the first alone, as %s", asked, sandbox.DemoAccountID)
	}
}
