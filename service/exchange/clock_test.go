package exchange_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestMeasureClockAtTheMidpoint: the service's reading is compared with the
// local clock halfway through the round trip, the best match for when the
// service read its clock.
func TestMeasureClockAtTheMidpoint(t *testing.T) {
	server := t0.Add(30 * time.Second)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"server_time":%d}`, server.UnixMilli())
	}))
	t.Cleanup(srv.Close)
	reads := []time.Time{t0, t0.Add(4 * time.Second)} // sent, then answered
	now := func() time.Time {
		if len(reads) == 0 {
			return t0.Add(4 * time.Second)
		}
		r := reads[0]
		reads = reads[1:]
		return r
	}
	c := exchange.New(config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), exchange.Options{Now: now})
	r, err := c.MeasureClock(context.Background())
	if err != nil || r.RTT != 4*time.Second || r.Offset != 28*time.Second {
		t.Fatalf("reading %+v, %v; want a 4s round trip and the service 28s ahead of the midpoint", r, err)
	}
}

// TestStatusCarriesTheServicesTime: a CREATED record comes with the
// service's clock when it was read, at the least: its /time, less the local
// time elapsed since the status was asked (here /time answers 20 s late),
// and never later than the local clock; a record of another state comes without, and so does a CREATED one when
// /time fails: no decision is then taken on it. An answer never sets it.
func TestStatusCarriesTheServicesTime(t *testing.T) {
	service := exchangetest.NewFakeClock(t0)
	local := exchangetest.NewFakeClock(t0.Add(time.Hour)) // an hour ahead
	ex := sandbox.New(sandbox.Options{Now: service.Now})
	var timeDown atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == exchange.PathTime {
			if timeDown.Load() {
				http.Error(w, "down", http.StatusServiceUnavailable)
				return
			}
			service.Advance(20 * time.Second)
			local.Advance(20 * time.Second)
		}
		ex.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c := exchange.New(config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), exchange.Options{Now: local.Now})
	if _, err := c.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	q, err := c.Quote(context.Background(), exchange.QuoteRequest{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: "25"})
	if err != nil {
		t.Fatal(err)
	}
	service.Advance(time.Minute)
	answered := service.Now()
	w, err := c.WithdrawalStatus(context.Background(), q.QuoteID)
	if err != nil || w.State != exchange.StateCreated {
		t.Fatalf("status %+v, %v", w, err)
	}
	if !w.ServiceTime.Equal(answered) {
		t.Errorf("service time %s, want %s: the service's clock when the record was read, never later", w.ServiceTime, answered)
	}
	// The local clock behind: never later than it (a /time far ahead
	// cannot call a quote dead early).
	local.Set(service.Now().Add(-10 * time.Minute))
	sent := local.Now()
	if w, err := c.WithdrawalStatus(context.Background(), q.QuoteID); err != nil || !w.ServiceTime.Equal(sent) {
		t.Errorf("local clock behind: service time %s, %v; want %s, the local clock when the status was asked", w.ServiceTime, err, sent)
	}
	timeDown.Store(true)
	local.Advance(exchange.KeptReadingLife + time.Second) // the reading kept is too old to stand in
	if w, err := c.WithdrawalStatus(context.Background(), q.QuoteID); err != nil || !w.ServiceTime.IsZero() {
		t.Errorf("without /time: service time %s, %v; want none", w.ServiceTime, err)
	}
	if b, _ := json.Marshal(w); strings.Contains(string(b), "2026") && strings.Contains(strings.ToLower(string(b)), "service") {
		t.Errorf("the service's time is written out: %s", b)
	}
	var fromWire exchange.Withdrawal
	if err := json.Unmarshal([]byte(`{"quote_id":"q-1","state":"CREATED","ServiceTime":"2099-01-01T00:00:00Z"}`), &fromWire); err != nil || !fromWire.ServiceTime.IsZero() {
		t.Errorf("an answer set the service's time: %+v %v", fromWire, err)
	}
}

// TestStatusKeepsTheServicesClock: a run of ids the service does not know
// asks /time once, not once an id: the reading kept stands in for its
// clock for KeptReadingLife, as its time plus ours elapsed since, less a
// drift allowance (a lower bound, never later than ours), flagged kept; past
// that life it is read again. ServiceTimeAfter reads it again after an
// answer, relative to when that ask left.
func TestStatusKeepsTheServicesClock(t *testing.T) {
	clock := exchangetest.NewFakeClock(t0)
	ex := sandbox.New(sandbox.Options{Now: clock.Now})
	var times atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == exchange.PathTime {
			times.Add(1)
		}
		ex.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c := exchange.New(config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), exchange.Options{Now: clock.Now})
	if _, err := c.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	status := func(id string) exchange.Withdrawal {
		t.Helper()
		w, err := c.WithdrawalStatus(context.Background(), id)
		if !errors.Is(err, exchange.ErrNotFound) {
			t.Fatalf("status of %s: %v, want not found", id, err)
		}
		return w
	}
	first := status("q-unknown0")
	if times.Load() != 1 || first.ServiceTimeKept || !first.ServiceTime.Equal(t0) {
		t.Fatalf("first not found: %d /time asks, service time %s kept %v; want one read after it, %s", times.Load(), first.ServiceTime, first.ServiceTimeKept, t0)
	}
	for i := 1; i < 20; i++ {
		clock.Advance(time.Second)
		w := status(fmt.Sprintf("q-unknown%d", i))
		elapsed := time.Duration(i) * time.Second
		if want := t0.Add(elapsed - elapsed/1000); !w.ServiceTimeKept || !w.ServiceTime.Equal(want) {
			t.Fatalf("not found %d: service time %s kept %v; want %s (the reading plus %s less its drift), kept", i, w.ServiceTime, w.ServiceTimeKept, want, elapsed)
		}
	}
	if n := times.Load(); n != 1 {
		t.Errorf("20 unknown ids in 19 s asked /time %d times, want once", n)
	}
	kept := status("q-again")
	if again := c.ServiceTimeAfter(context.Background(), kept); again.ServiceTimeKept || !again.ServiceTime.Equal(clock.Now()) || times.Load() != 2 {
		t.Errorf("read again: %s kept %v after %d /time asks; want %s, read after the answer", again.ServiceTime, again.ServiceTimeKept, times.Load(), clock.Now())
	}
	clock.Advance(exchange.KeptReadingLife + time.Second)
	if w := status("q-later"); w.ServiceTimeKept || times.Load() != 3 {
		t.Errorf("past the reading's life: kept %v, %d /time asks; want it read again", w.ServiceTimeKept, times.Load())
	}
}

// skewedServer is the sandbox on t0 with /time shifted by skew; it returns
// the environment and the expiration of the last wallet login it received.
func skewedServer(t *testing.T, skew time.Duration) (config.Environment, *atomic.Int64) {
	t.Helper()
	ex := sandbox.New(sandbox.Options{Now: func() time.Time { return t0 }})
	var loginExp atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case exchange.PathTime:
			json.NewEncoder(w).Encode(exchange.ServerTime{ServerTime: t0.Add(skew).UnixMilli()})
			return
		case exchange.PathWalletLogin:
			body, _ := io.ReadAll(r.Body)
			var req exchange.WalletLoginRequest
			if json.Unmarshal(body, &req) == nil {
				var exp int64
				json.Unmarshal([]byte(req.Signature.Expiration), &exp)
				loginExp.Store(exp)
			}
			r.Body = io.NopCloser(strings.NewReader(string(body)))
		}
		ex.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), &loginExp
}

// TestWalletLoginRefusesSkewedClock: a server clock 30 days ahead or 3
// minutes behind gets no login signature ("check your clock", naming the
// difference); 90 seconds either way logs in, the expiry counted from the
// earlier clock.
func TestWalletLoginRefusesSkewedClock(t *testing.T) {
	key := mustKey(t, sandbox.DemoPrivateKey)
	for _, tc := range []struct {
		skew time.Duration
		want string
	}{
		{30 * 24 * time.Hour, "720h0m0s ahead of"},
		{-3 * time.Minute, "3m0s behind"},
		{90 * time.Second, ""},
		{-90 * time.Second, ""},
	} {
		env, loginExp := skewedServer(t, tc.skew)
		c := exchange.New(env, exchange.Options{Now: func() time.Time { return t0 }})
		_, err := c.Login(context.Background(), exchange.Wallet(key))
		if tc.want == "" {
			earlier := t0
			if tc.skew < 0 {
				earlier = t0.Add(tc.skew)
			}
			if err != nil || loginExp.Load() != earlier.Add(4*time.Minute).UnixNano() {
				t.Errorf("skew %s: %v, expiration %d, want %d", tc.skew, err, loginExp.Load(), earlier.Add(4*time.Minute).UnixNano())
			}
			continue
		}
		var skew *exchange.ClockSkewError
		if !errors.As(err, &skew) || !strings.Contains(err.Error(), "check your clock") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("skew %s: %v", tc.skew, err)
		}
		if loginExp.Load() != 0 {
			t.Errorf("skew %s: a login signature was sent", tc.skew)
		}
	}
}
