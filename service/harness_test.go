package service_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/signer"
)

// t0 is the sandbox's fake clock start, far from a UTC day boundary.
var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// world is a sandbox exchange on loopback with a fake clock, and the
// environment a client needs to reach it.
type world struct {
	t     *testing.T
	clock *sandbox.FakeClock
	ex    *sandbox.Exchange
	env   service.Environment
}

func newWorld(t *testing.T, opts sandbox.Options) *world {
	t.Helper()
	clock := sandbox.NewFakeClock(t0)
	opts.Now = clock.Now
	ex := sandbox.New(opts)
	srv := httptest.NewServer(ex)
	t.Cleanup(srv.Close)
	return &world{t: t, clock: clock, ex: ex, env: service.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)}
}

// client returns a client on the world's clock; opts.Now is overridden.
func (w *world) client(opts service.Options) *service.Client {
	opts.Now = w.clock.Now
	return service.New(w.env, opts)
}

// login returns a client logged in with an API key.
func (w *world) login(apiKey string, opts service.Options) *service.Client {
	w.t.Helper()
	c := w.client(opts)
	if _, err := c.Login(context.Background(), service.APIKey(apiKey)); err != nil {
		w.t.Fatalf("login with %s: %v", apiKey, err)
	}
	return c
}

func mustKey(t testing.TB, hexKey string) *signer.PrivateKey {
	t.Helper()
	k, err := signer.ParsePrivateKeyHex(hexKey)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// quote asks for a USDT quote to a destination on a chain.
func (w *world) quote(c *service.Client, to, chain, amount string) (service.Quote, error) {
	return c.Quote(context.Background(), service.QuoteRequest{
		ToAddress: to, Chain: chain, TokenIn: service.TokenUSDT, TokenOut: service.TokenUSDT, Amount: amount,
	})
}

// signWithdraw signs the Transfer for a quote with key, as the review screen does.
func (w *world) signWithdraw(c *service.Client, q service.Quote, key signer.Key, mutate func(*signer.Transfer)) service.WithdrawRequest {
	w.t.Helper()
	info, err := c.WithdrawalInfo(context.Background())
	if err != nil {
		w.t.Fatalf("withdrawal info: %v", err)
	}
	s, _ := c.Session()
	raw, err := service.RawUnits(q.PayAmount)
	if err != nil {
		w.t.Fatal(err)
	}
	tr := signer.Transfer{
		FromAccount: common.HexToAddress(s.FundingAccountAddress), ToAccount: common.HexToAddress(info.FundingAddress),
		TokenCurrency: signer.USDTCurrency, NumTokens: raw, Nonce: signer.NewNonce(),
		Expiration: w.clock.Now().Add(24 * time.Hour).UnixNano(),
	}
	if mutate != nil {
		mutate(&tr)
	}
	sig, err := signer.Sign(key, w.env.Domain(), tr)
	if err != nil {
		w.t.Fatal(err)
	}
	return service.WithdrawRequest{QuoteID: q.QuoteID, Signature: service.NewWithdrawSignature(sig)}
}

// noSleep makes retries immediate: the tests order events by state, not time.
func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// shortTimeout is an HTTP client whose attempts give up fast, for faults that
// hang until the client leaves.
func shortTimeout(d time.Duration) *http.Client { return &http.Client{Timeout: d} }
