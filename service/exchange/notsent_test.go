package exchange_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// closedAddr is a loopback address nothing listens on: a dial to it is
// refused.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// resetServer is the address of a server that takes each request and
// resets its connection without an answer.
func resetServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		if tcp, ok := conn.(*net.TCPConn); ok {
			tcp.SetLinger(0)
		}
		conn.Close()
	}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// TestWithdrawNotSent: a withdraw that never left this machine says so
// (exchange.NotSent), and is neither a refusal nor an unknown outcome: no
// session, a context ended before the write, a dial refused on every
// attempt (or on each before the deadline came in a pause). One whose earlier attempt may have arrived is never "not
// sent", whatever its last attempt, nor one whose connection was reset
// after the write, or that the transport got a connection for at all
// before a dial failed, nor one refused for its session (401)
// whose re-send after logging in again never left; the service's own
// refusal is not either.
func TestWithdrawNotSent(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	closed := closedAddr(t)
	var withdraws atomic.Int64
	// first fails the first withdraw attempt as a dropped connection
	// would (it may have arrived); refuse dials a closed port for the
	// rest (a real refused dial).
	var first, refuse, unauthorized, readReset, replayed atomic.Bool
	resetting := resetServer(t)
	through := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == exchange.PathWithdraw {
			if readReset.Load() {
				// The connection reset while the answer was awaited.
				return nil, &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
			}
			if replayed.Load() {
				// Written to a connection that was then reset, and
				// replayed by the transport (as HTTP/2's does) to a dial
				// that fails: the first may have arrived.
				to := req.Clone(req.Context())
				to.URL.Host = resetting
				if resp, err := http.DefaultTransport.RoundTrip(to); err == nil {
					resp.Body.Close()
				}
				to.URL.Host = closed
				return http.DefaultTransport.RoundTrip(to)
			}
			if unauthorized.CompareAndSwap(true, false) {
				return &http.Response{StatusCode: http.StatusUnauthorized, Body: io.NopCloser(strings.NewReader(`{"code":1000,"message":"not authenticated","status":401}`)),
					Header: http.Header{}, Request: req}, nil
			}
			if first.CompareAndSwap(true, false) {
				return nil, io.ErrUnexpectedEOF
			}
			if refuse.Load() {
				req = req.Clone(req.Context())
				req.URL.Host = closed
			} else {
				withdraws.Add(1)
			}
		}
		return http.DefaultTransport.RoundTrip(req)
	})
	opts := exchange.Options{HTTPClient: &http.Client{Transport: through}, Retry: exchange.RetryPolicy{Attempts: 3, Sleep: noSleep}}
	c := w.Login(sandbox.DemoAPIKey, opts)
	key := mustKey(t, sandbox.DemoPrivateKey)
	request := func(dest string) exchange.WithdrawRequest {
		q, err := w.Quote(c, dest, "ARBITRUM", "5")
		if err != nil {
			t.Fatal(err)
		}
		return w.signWithdraw(c, q, key, nil)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Withdraw(cancelled, request(sandbox.DestCompleted)); !exchange.NotSent(err) || exchange.OutcomeUnknown(err) {
		t.Errorf("context ended before the write: %v", err)
	}
	if _, err := w.Client(opts).Withdraw(ctx, request(sandbox.DestCompleted)); !exchange.NotSent(err) {
		t.Errorf("no session: %v", err)
	}
	refuse.Store(true)
	if _, err := c.Withdraw(ctx, request(sandbox.DestCompleted)); !exchange.NotSent(err) {
		t.Errorf("dial refused on every attempt: %v", err)
	}
	// The deadline comes in the pause before the next attempt.
	deadline := opts
	deadline.Retry.Sleep = func(context.Context, time.Duration) error { return context.DeadlineExceeded }
	if _, err := w.Login(sandbox.DemoAPIKey, deadline).Withdraw(ctx, request(sandbox.DestCompleted)); !exchange.NotSent(err) {
		t.Errorf("dial refused, then the deadline: %v", err)
	}
	var pauses atomic.Int64
	deadline.Retry.Sleep = func(context.Context, time.Duration) error {
		if pauses.Add(1) > 1 {
			return context.DeadlineExceeded
		}
		return nil
	}
	first.Store(true)
	if _, err := w.Login(sandbox.DemoAPIKey, deadline).Withdraw(ctx, request(sandbox.DestCompleted)); exchange.NotSent(err) || !exchange.OutcomeUnknown(err) {
		t.Errorf("no answer, a dial refused, then the deadline: %v, want an unknown outcome", err)
	}
	first.Store(true)
	if _, err := c.Withdraw(ctx, request(sandbox.DestCompleted)); exchange.NotSent(err) || !exchange.OutcomeUnknown(err) {
		t.Errorf("no answer, then a dial refused: %v, want an unknown outcome", err)
	}
	if n := withdraws.Load(); n != 0 {
		t.Errorf("%d withdraws reached the service", n)
	}
	refuse.Store(false)
	readReset.Store(true)
	if _, err := c.Withdraw(ctx, request(sandbox.DestCompleted)); exchange.NotSent(err) || !exchange.OutcomeUnknown(err) {
		t.Errorf("reset after the write: %v, want an unknown outcome", err)
	}
	readReset.Store(false)
	replayed.Store(true)
	if _, err := c.Withdraw(ctx, request(sandbox.DestCompleted)); exchange.NotSent(err) || !exchange.OutcomeUnknown(err) {
		t.Errorf("written, reset, replayed to a dial refused: %v, want an unknown outcome", err)
	}
	replayed.Store(false)
	if _, err := c.Withdraw(ctx, request(sandbox.DestFlagged)); err == nil || exchange.NotSent(err) || exchange.OutcomeUnknown(err) {
		t.Errorf("the service's refusal: %v", err)
	}
	// Refused for its session (401), then, logged in again, its re-send
	// never leaves: the first reached the service, so it was sent.
	unauthorized.Store(true)
	refuse.Store(true)
	if _, err := c.Withdraw(ctx, request(sandbox.DestCompleted)); exchange.NotSent(err) {
		t.Errorf("a 401, then a dial refused: %v, want not \"not sent\"", err)
	}
}

// TestWithdraw401ThenLoginNotSent: a withdraw refused for its session
// (401) reached the service; logging in again that never leaves does not
// make it "not sent".
func TestWithdraw401ThenLoginNotSent(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	closed := closedAddr(t)
	var down atomic.Bool
	through := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == exchange.PathWithdraw {
			return &http.Response{StatusCode: http.StatusUnauthorized, Body: io.NopCloser(strings.NewReader(`{"code":1000,"message":"not authenticated","status":401}`)),
				Header: http.Header{}, Request: req}, nil
		}
		if down.Load() {
			req = req.Clone(req.Context())
			req.URL.Host = closed
		}
		return http.DefaultTransport.RoundTrip(req)
	})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: &http.Client{Transport: through}, Retry: exchange.RetryPolicy{Attempts: 1, Sleep: noSleep}})
	q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "5")
	if err != nil {
		t.Fatal(err)
	}
	req := w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil)
	down.Store(true)
	if _, err := c.Withdraw(ctx, req); err == nil || exchange.NotSent(err) {
		t.Errorf("a 401, then logging in again refused its dial: %v, want not \"not sent\"", err)
	}
}

// TestWithdraw401OnAReplacedSessionNotSent: a withdraw refused for its
// session (401) reached the service; when another session was adopted
// meanwhile (one with no credential, from the store), the request goes
// again on it, and that re-send never leaving does not make the withdraw
// "not sent".
func TestWithdraw401OnAReplacedSessionNotSent(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	quoting := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	old, _ := quoting.Kept()
	fresh, _ := w.Login(sandbox.DemoAPIKey, exchange.Options{}).Kept()
	closed := closedAddr(t)
	var c *exchange.Client
	var withdraws, down atomic.Int64
	through := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.URL.Path == exchange.PathWithdraw && withdraws.Add(1) == 1 {
			c.Adopt(fresh, nil) // while the 401 is on its way
			down.Store(1)
			return &http.Response{StatusCode: http.StatusUnauthorized, Body: io.NopCloser(strings.NewReader(`{"code":1000,"message":"not authenticated","status":401}`)),
				Header: http.Header{}, Request: req}, nil
		}
		if down.Load() == 1 {
			req = req.Clone(req.Context())
			req.URL.Host = closed
		}
		return http.DefaultTransport.RoundTrip(req)
	})
	c = exchange.New(w.Env, exchange.Options{HTTPClient: &http.Client{Transport: through}, Now: w.Clock.Now,
		Retry: exchange.RetryPolicy{Attempts: 1, Sleep: noSleep}})
	c.Adopt(old, nil)
	q, err := w.Quote(quoting, sandbox.DestCompleted, "ARBITRUM", "5")
	if err != nil {
		t.Fatal(err)
	}
	req := w.signWithdraw(quoting, q, mustKey(t, sandbox.DemoPrivateKey), nil)
	_, err = c.Withdraw(ctx, req)
	if withdraws.Load() != 2 {
		t.Fatalf("%d withdraw requests, want the refused one and its re-send on the session adopted meanwhile: %v", withdraws.Load(), err)
	}
	if err == nil || exchange.NotSent(err) {
		t.Errorf("a 401, then the re-send on the session adopted meanwhile refused its dial: %v, want not \"not sent\"", err)
	}
}
