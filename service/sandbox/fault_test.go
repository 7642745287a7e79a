package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// faultOnce returns a hook that answers f at phase the first time only.
func faultOnce(phase string, f Fault) func(string) Fault {
	var mu sync.Mutex
	done := false
	return func(p string) Fault {
		mu.Lock()
		defer mu.Unlock()
		if p != phase || done {
			return FaultNone
		}
		done = true
		return f
	}
}

// hangReached waits for a withdraw sent in the background to reach its
// hang (reached), failing the test at once if it ended first (done: it
// was answered, a refusal, or its connection failed), or if neither comes
// within stuck.
func hangReached(h *harness, reached <-chan struct{}, done <-chan error) {
	h.t.Helper()
	select {
	case <-reached:
	case err := <-done:
		h.broken()
		h.t.Fatalf("the withdraw ended before reaching its hang (error %v): it was answered", err)
	case <-time.After(stuck):
		h.broken()
		h.t.Fatalf("the withdraw did not reach its hang within %s", stuck)
	}
}

// post sends a withdraw and reports the transport error instead of failing.
func (s *sess) post(ctx context.Context, body any) (*http.Response, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.h.url+exchange.PathWithdraw, bytes.NewReader(b))
	if err != nil {
		s.h.t.Fatal(err)
	}
	for k, v := range s.headers() {
		req.Header.Set(k, v)
	}
	return s.h.client.Do(req)
}

func TestFaultBadGatewayBeforeCommit(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	body := s.withdrawBody(s.quote(DestCompleted, "BASE", "10"), key(t, DemoPrivateKey), DemoAddress, 1)
	h.ex.InjectWithdrawFault(faultOnce(PhaseBeforeCommit, FaultBadGateway))
	r := s.withdraw(body)
	if r.status != http.StatusBadGateway || !strings.Contains(string(r.body), "<html>") {
		t.Fatalf("got %d %s", r.status, r.body)
	}
	wantBalance(t, h, DemoAccountID, "10000")
	wantStatus(t, s.withdraw(body), http.StatusAccepted)
	wantBalance(t, h, DemoAccountID, "9990")
}

func TestFaultBadGatewayAfterCommit(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	q := s.quote(DestCompleted, "BASE", "10")
	body := s.withdrawBody(q, key(t, DemoPrivateKey), DemoAddress, 1)
	h.ex.InjectWithdrawFault(faultOnce(PhaseAfterCommit, FaultBadGateway))
	wantStatus(t, s.withdraw(body), http.StatusBadGateway)
	wantBalance(t, h, DemoAccountID, "9990")
	if w := s.status(q.QuoteID); w.State != exchange.StateSubmitted {
		t.Fatalf("state %s", w.State)
	}
	wantStatus(t, s.withdraw(body), http.StatusAccepted)
	wantBalance(t, h, DemoAccountID, "9990")
}

func TestFaultDropAfterCommit(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	q := s.quote(DestCompleted, "BASE", "10")
	body := s.withdrawBody(q, key(t, DemoPrivateKey), DemoAddress, 1)
	h.ex.InjectWithdrawFault(faultOnce(PhaseAfterCommit, FaultDrop))
	resp, err := s.post(context.Background(), body)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("dropped connection answered %d", resp.StatusCode)
	}
	wantBalance(t, h, DemoAccountID, "9990")
	r := s.withdraw(body)
	wantStatus(t, r, http.StatusAccepted)
	var acc exchange.WithdrawAccepted
	decode(t, r.body, &acc)
	if acc.TxID != s.status(q.QuoteID).TxID {
		t.Fatal("retry answered another transfer")
	}
	wantBalance(t, h, DemoAccountID, "9990")
}

func TestFaultHangAfterCommit(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	body := s.withdrawBody(s.quote(DestCompleted, "BASE", "10"), key(t, DemoPrivateKey), DemoAddress, 1)
	reached := make(chan struct{})
	once := faultOnce(PhaseAfterCommit, FaultHang)
	h.ex.InjectWithdrawFault(func(p string) Fault {
		f := once(p)
		if f == FaultHang {
			close(reached)
		}
		return f
	})
	// Ended before the server closes, should the test stop early: a hung
	// request would hold the close.
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		resp, err := s.post(ctx, body)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	hangReached(h, reached, done)
	// Other requests go on while the withdraw hangs.
	wantBalance(t, h, DemoAccountID, "9990")
	s.status(body.QuoteID)
	cancel()
	if err := within(h, done, "the cancelled withdraw's end"); !errors.Is(err, context.Canceled) {
		t.Fatalf("hung request ended with %v", err)
	}
	wantStatus(t, s.withdraw(body), http.StatusAccepted)
	wantBalance(t, h, DemoAccountID, "9990")
}

// The request log has one line per request and no secret: no API key,
// cookie, or signature component.
func TestLogHasNoSecrets(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return buf.Write(p)
	}), nil))
	h := newHarness(t, Options{Logger: logger})
	s := h.login(DemoAPIKey)
	body := s.withdrawBody(s.quote(DestCompleted, "BASE", "10"), key(t, DemoPrivateKey), DemoAddress, 1)
	wantStatus(t, s.withdraw(body), http.StatusAccepted)
	wantError(t, h.do(http.MethodPost, exchange.PathAPIKeyLogin, `{"api_key":"wrong-key-123"}`, nil), exchange.CodeNotAuthenticated)
	mu.Lock()
	log := buf.String()
	mu.Unlock()
	for _, secret := range []string{DemoAPIKey, "wrong-key-123", s.cookie, body.Signature.R[2:], body.Signature.S[2:], DemoPrivateKey[2:]} {
		if strings.Contains(log, secret) {
			t.Errorf("log holds a secret: %q", secret)
		}
	}
	if n := strings.Count(log, "\n"); n != 4 {
		t.Errorf("%d log lines, want 4:\n%s", n, log)
	}
	for _, want := range []string{"path=/api/v1/bridge/withdraw status=202", "status=401 code=1000", "duration="} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// Start serves on a real listener; concurrent repeats of one withdraw move
// the money once and all get the same answer.
func TestStartConcurrentRepeats(t *testing.T) {
	clock := exchangetest.NewFakeClock(t0)
	srv, err := Start("127.0.0.1:0", Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := &harness{t: t, clock: clock, ex: srv.Exchange, url: srv.URL, client: &http.Client{Timeout: stuck}}
	s := h.login(DemoAPIKey)
	body := s.withdrawBody(s.quote(DestCompleted, "BASE", "10"), key(t, DemoPrivateKey), DemoAddress, 1)
	answers := make([]string, 16)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			resp, err := s.post(context.Background(), body)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusAccepted {
				t.Errorf("withdraw %d %s", resp.StatusCode, b)
			}
			answers[i] = string(b)
		})
		wg.Go(func() { // status reads alongside; t.Fatal is not for goroutines
			req, _ := http.NewRequest(http.MethodGet, h.url+exchange.PathWithdrawalStatus+"?quote_id="+body.QuoteID, nil)
			for k, v := range s.headers() {
				req.Header.Set(k, v)
			}
			resp, err := h.client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("status %d", resp.StatusCode)
			}
		})
	}
	wg.Wait()
	for _, a := range answers[1:] {
		if a != answers[0] {
			t.Fatalf("answers differ: %s vs %s", a, answers[0])
		}
	}
	wantBalance(t, h, DemoAccountID, "9990")
}

// Closing the server releases a withdraw held by FaultHang.
func TestServerCloseReleasesHang(t *testing.T) {
	clock := exchangetest.NewFakeClock(t0)
	srv, err := Start("127.0.0.1:0", Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, clock: clock, ex: srv.Exchange, url: srv.URL, client: &http.Client{Timeout: stuck}}
	s := h.login(DemoAPIKey)
	body := s.withdrawBody(s.quote(DestCompleted, "BASE", "10"), key(t, DemoPrivateKey), DemoAddress, 1)
	reached := make(chan struct{})
	srv.Exchange.InjectWithdrawFault(func(p string) Fault {
		if p != PhaseBeforeCommit {
			return FaultNone
		}
		close(reached)
		return FaultHang
	})
	done := make(chan error, 1)
	go func() {
		resp, err := s.post(context.Background(), body)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	hangReached(h, reached, done)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if err := within(h, done, "the hung withdraw's end once the server closed"); err == nil {
		t.Fatal("hung request got an answer")
	}
	wantBalance(t, h, DemoAccountID, "10000")
}
