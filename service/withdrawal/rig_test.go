package withdrawal_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// t0 is the service's clock at the start, far from a UTC day boundary.
var t0 = loopback.T0

// rig is the sandbox exchange on loopback on the service's clock, a client
// logged in with the demo API key on a local clock that may run ahead of
// it, and a journal and bridge record of its own.
type rig struct {
	t       *testing.T
	service *exchangetest.FakeClock // the sandbox's
	local   *exchangetest.FakeClock // the client's and the journal's
	ex      *sandbox.Exchange
	env     config.Environment
	client  *exchange.Client
	journal *journal.Journal
	pins    string
	// timeDown makes /time answer 503; timeAhead, when not zero, makes it
	// answer the service's clock that far ahead (a glitching /time host).
	timeDown  atomic.Bool
	timeAhead atomic.Int64
	// withdraws counts the withdraw requests that reached the service.
	withdraws atomic.Int64
	// quote429 is how many quote requests are answered 429 before one is
	// served; quotes counts those that reached the rig.
	quote429, quotes atomic.Int64
	// before, when set, is called with each request before it is served.
	before atomic.Pointer[func(*http.Request)]
	// holding: a gateway holds each withdraw request (the first is kept in
	// held, to deliver later) and answers 502.
	holding atomic.Bool
	held    atomic.Pointer[http.Request]
}

// newRig starts the sandbox; the local clock is ahead of the service's by
// ahead (behind when negative). unpinned: the environment pins no bridge
// address, so the first one is trusted on first use.
func newRig(t *testing.T, ahead time.Duration, unpinned bool) *rig {
	t.Helper()
	r := &rig{t: t, local: exchangetest.NewFakeClock(t0.Add(ahead))}
	w := loopback.NewWorldBehind(t, sandbox.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if f := r.before.Load(); f != nil {
				(*f)(req)
			}
			switch {
			case req.URL.Path == exchange.PathTime && r.timeDown.Load():
				http.Error(w, "<html>503</html>", http.StatusServiceUnavailable)
				return
			case req.URL.Path == exchange.PathTime && r.timeAhead.Load() != 0:
				ahead := time.Duration(r.timeAhead.Load())
				fmt.Fprintf(w, `{"server_time":%d}`, r.service.Now().Add(ahead).UnixMilli())
				return
			case req.URL.Path == exchange.PathWithdraw && r.holding.Load():
				body, _ := io.ReadAll(req.Body)
				kept := req.Clone(context.Background())
				kept.Body = io.NopCloser(bytes.NewReader(body))
				r.held.CompareAndSwap(nil, kept)
				http.Error(w, "<html>502 Bad Gateway</html>", http.StatusBadGateway)
				return
			case req.URL.Path == exchange.PathWithdraw:
				r.withdraws.Add(1)
			case req.URL.Path == exchange.PathWithdrawalQuote:
				if r.quotes.Add(1); r.quote429.Add(-1) >= 0 {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusTooManyRequests)
					fmt.Fprint(w, `{"code":1006,"message":"rate limited","status":429}`)
					return
				}
			}
			next.ServeHTTP(w, req)
		})
	})
	r.service, r.ex, r.env = w.Clock, w.Ex, w.Env
	if unpinned {
		r.env.BridgeFundingAddress = ""
	}
	r.client = exchange.New(r.env, exchange.Options{Now: r.local.Now,
		Retry: exchange.RetryPolicy{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond}})
	if _, err := r.client.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	j, err := journal.Open(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r.journal, r.pins = j, withdrawal.BridgePinsPath(dir)
	return r
}

// deliver hands the withdraw request the gateway held to the service, as a
// gateway that delivers it late would, and returns the service's status.
func (r *rig) deliver() int {
	r.t.Helper()
	req := r.held.Load()
	if req == nil {
		r.t.Fatal("no withdraw request was held")
	}
	rec := httptest.NewRecorder()
	r.ex.ServeHTTP(rec, req)
	return rec.Code
}

// at sets the service's clock to t, the local one keeping its lead.
func (r *rig) at(t time.Time) {
	r.advance(t.Sub(r.service.Now()))
}

// advance moves both clocks on by d.
func (r *rig) advance(d time.Duration) {
	r.service.Advance(d)
	r.local.Advance(d)
}

func (r *rig) withdrawer() withdrawal.Withdrawer {
	return mustWithdrawer(r.t, withdrawal.Setup{Client: r.client, Journal: r.journal, Now: r.local.Now, BridgePins: r.pins})
}

// mustWithdrawer is the Withdrawer s makes (withdrawal.NewWithdrawer).
func mustWithdrawer(t *testing.T, s withdrawal.Setup) withdrawal.Withdrawer {
	t.Helper()
	w, err := withdrawal.NewWithdrawer(s)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// choice is amount USDT to dest on ARBITRUM, with the bridge the service gives.
func (r *rig) choice(dest, amount string) withdrawal.Choice {
	r.t.Helper()
	info, err := r.client.WithdrawalInfo(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	return withdrawal.Choice{Info: info, TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, ToAddress: dest,
		Route: exchange.WithdrawalRoute{Chain: "ARBITRUM", ChainType: exchange.ChainTypeEVM}, Amount: decimal.RequireFromString(amount)}
}

// order quotes c and builds its Transfer as the faces do, on the service's
// clock measured with the quote.
func (r *rig) order(c withdrawal.Choice) withdrawal.Order {
	r.t.Helper()
	cx := context.Background()
	q, err := r.client.Quote(cx, exchange.QuoteRequest{ToAddress: c.ToAddress, Chain: c.Route.Chain, TokenIn: c.TokenIn, TokenOut: c.TokenOut, Amount: c.Amount.String()})
	if err != nil {
		r.t.Fatal(err)
	}
	clock, err := r.client.MeasureClock(cx)
	if err != nil {
		r.t.Fatal(err)
	}
	s, _ := r.client.Session()
	o, err := withdrawal.NewOrder(c, withdrawal.PricedQuote{Quote: q, Offset: clock.Offset}, s.FundingAccountAddress, r.env.Domain(), signer.NewNonce(), r.local.Now())
	if err != nil {
		r.t.Fatal(err)
	}
	return o
}

// demoKey loads the demo account's key.
func demoKey() (signer.Key, error) {
	k, err := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	return k, err
}
