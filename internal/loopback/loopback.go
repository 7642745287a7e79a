// Package loopback is the sandbox exchange on loopback on a fake clock, and
// a client of it, as the tests of the wire client, the journal, following,
// withdrawals and builder authorizations drive it. Imported by tests only;
// beside exchangetest (which the sandbox's own tests import), not under it.
package loopback

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// T0 is the sandbox's fake clock start, far from a UTC day boundary.
var T0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// World is a sandbox exchange on loopback with a fake clock, and the
// environment a client needs to reach it.
type World struct {
	T     *testing.T // the test it serves
	Clock *exchangetest.FakeClock
	Ex    *sandbox.Exchange
	Env   config.Environment
}

// NewWorld starts the sandbox on loopback, its clock at T0; opts.Now is
// overridden.
func NewWorld(t *testing.T, opts sandbox.Options) *World { return NewWorldBehind(t, opts, nil) }

// NewWorldBehind is NewWorld with front, when not nil, serving each request
// before the sandbox does (a proxy that rewrites answers, a gateway that
// holds them): it is given the sandbox to pass requests on to.
func NewWorldBehind(t *testing.T, opts sandbox.Options, front func(next http.Handler) http.Handler) *World {
	t.Helper()
	clock := exchangetest.NewFakeClock(T0)
	opts.Now = clock.Now
	ex := sandbox.New(opts)
	var h http.Handler = ex
	if front != nil {
		h = front(ex)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &World{T: t, Clock: clock, Ex: ex, Env: config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)}
}

// Client returns a client on the world's clock; opts.Now is overridden.
func (w *World) Client(opts exchange.Options) *exchange.Client {
	opts.Now = w.Clock.Now
	return exchange.New(w.Env, opts)
}

// Login returns a client logged in with an API key.
func (w *World) Login(apiKey string, opts exchange.Options) *exchange.Client {
	w.T.Helper()
	c := w.Client(opts)
	if _, err := c.Login(context.Background(), exchange.APIKey(apiKey)); err != nil {
		w.T.Fatalf("login with %s: %v", apiKey, err)
	}
	return c
}

// Quote asks for a USDT quote to a destination on a chain.
func (w *World) Quote(c *exchange.Client, to, chain, amount string) (exchange.Quote, error) {
	return c.Quote(context.Background(), exchange.QuoteRequest{
		ToAddress: to, Chain: chain, TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: amount,
	})
}

// MustKey parses a hex private key (the sandbox's well-known ones).
func MustKey(t testing.TB, hexKey string) *signer.PrivateKey {
	t.Helper()
	k, err := signer.ParsePrivateKeyHex(hexKey)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// NoSleep makes retries immediate: the tests order events by state, not time.
func NoSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// RoundTripFunc is a function that serves as an http.RoundTripper.
type RoundTripFunc func(*http.Request) (*http.Response, error)

func (f RoundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// Recorder is an http.RoundTripper that records what the client sends and
// the session cookies it is given; Edit, when set, changes each request
// before it leaves.
type Recorder struct {
	mu      sync.Mutex
	sent    []*http.Request // clones, bodies not kept
	cookies []string        // values of svc cookies set by the sandbox
	Edit    func(*http.Request)
	Answer  func(*http.Response) // when set, changes each answer before the client reads it
}

func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	r.mu.Lock()
	if r.Edit != nil {
		r.Edit(req)
	}
	r.sent = append(r.sent, req)
	r.mu.Unlock()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && r.Answer != nil {
		r.Answer(resp)
	}
	if err == nil {
		for _, c := range resp.Cookies() {
			if c.Name == config.SessionCookie {
				r.mu.Lock()
				r.cookies = append(r.cookies, c.Value)
				r.mu.Unlock()
			}
		}
	}
	return resp, err
}

// Count is how many requests went to path.
func (r *Recorder) Count(path string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, q := range r.sent {
		if q.URL.Path == path {
			n++
		}
	}
	return n
}

// Requests are the requests sent so far.
func (r *Recorder) Requests() []*http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*http.Request(nil), r.sent...)
}

// Cookies are the session cookies the sandbox set so far, in order.
func (r *Recorder) Cookies() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.cookies...)
}

// HTTPClient is an HTTP client that goes through r.
func (r *Recorder) HTTPClient() *http.Client {
	return &http.Client{Transport: r, Timeout: exchange.DefaultTimeout}
}

// Logins counts the login requests of both kinds.
func (r *Recorder) Logins() int {
	return r.Count(exchange.PathAPIKeyLogin) + r.Count(exchange.PathWalletLogin)
}
