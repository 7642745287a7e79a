package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// t0 is the fake clock's start: mid-morning UTC, so a day boundary is far.
var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

type harness struct {
	t      *testing.T
	clock  *exchangetest.FakeClock
	ex     *Exchange
	url    string
	client *http.Client
	// panicked is what the sandbox logged it panicked with serving a
	// request, and which: answered 500, it is a bug the test says as such.
	panicked atomic.Pointer[string]
}

// stuck bounds every wait of these tests for the sandbox (an answer, a
// request reaching a phase): an answer on loopback takes milliseconds, so
// a sandbox not answering in stuck is broken, said so, not waited on
// until the test binary's timeout.
const stuck = 10 * time.Second

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	clock := exchangetest.NewFakeClock(t0)
	opts.Now = clock.Now
	h := &harness{t: t, clock: clock}
	next := slog.DiscardHandler
	if opts.Logger != nil {
		next = opts.Logger.Handler()
	}
	opts.Logger = slog.New(panicTap{h: h, next: next})
	ex := New(opts)
	h.ex = ex
	srv := httptest.NewServer(ex)
	t.Cleanup(func() { h.close(srv) })
	h.url, h.client = srv.URL, srv.Client()
	h.client.Timeout = stuck
	return h
}

// close closes srv, which waits for the requests it serves: for at most
// stuck, should one never end.
func (h *harness) close(srv *httptest.Server) {
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(stuck):
		h.t.Errorf("the sandbox's server did not close within %s: a request it serves is stuck", stuck)
	}
}

// panicTap passes the sandbox's log on to next, keeping the first panic it
// logs (harness.panicked): the test then says the bug, not only a 500.
type panicTap struct {
	h    *harness
	next slog.Handler
}

func (p panicTap) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelError || p.next.Enabled(ctx, l)
}

func (p panicTap) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "panic" {
		said := r.Message
		r.Attrs(func(a slog.Attr) bool { said += " " + a.String(); return true })
		p.h.panicked.CompareAndSwap(nil, &said)
	}
	if !p.next.Enabled(ctx, r.Level) {
		return nil
	}
	return p.next.Handle(ctx, r)
}

func (p panicTap) WithAttrs(as []slog.Attr) slog.Handler {
	return panicTap{h: p.h, next: p.next.WithAttrs(as)}
}

func (p panicTap) WithGroup(name string) slog.Handler {
	return panicTap{h: p.h, next: p.next.WithGroup(name)}
}

// broken fails the test at once if the sandbox panicked serving a request:
// a bug, whatever the test was waiting for.
func (h *harness) broken() {
	h.t.Helper()
	if p := h.panicked.Load(); p != nil {
		h.t.Fatalf("the sandbox panicked: %s", *p)
	}
}

// within waits for done (a request reaching a phase, a goroutine's end)
// for at most stuck, failing the test with what was awaited.
func within[T any](h *harness, done <-chan T, what string) T {
	h.t.Helper()
	select {
	case v := <-done:
		return v
	case <-time.After(stuck):
		h.broken()
		h.t.Fatalf("%s: not within %s", what, stuck)
		var zero T
		return zero
	}
}

// response is a finished HTTP exchange.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request; body is sent as is when it is a string or []byte,
// else as JSON. hdr holds extra headers.
func (h *harness) do(method, path string, body any, hdr map[string]string) response {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, h.url+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	h.broken()
	resp, err := h.client.Do(req)
	h.broken()
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return response{resp.StatusCode, resp.Header, b}
}

// sess is a logged-in client: the svc cookie and the account id header.
type sess struct {
	h         *harness
	cookie    string
	accountID string
	result    exchange.LoginResult
}

func (h *harness) login(apiKey string) *sess {
	h.t.Helper()
	r := h.do(http.MethodPost, exchange.PathAPIKeyLogin, exchange.APIKeyLoginRequest{APIKey: apiKey}, nil)
	return h.session(r)
}

func (h *harness) session(r response) *sess {
	h.t.Helper()
	if r.status != http.StatusOK {
		h.t.Fatalf("login: %d %s", r.status, r.body)
	}
	s := &sess{h: h, accountID: r.header.Get(config.HeaderAccountID)}
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == config.SessionCookie {
			s.cookie = c.Value
		}
	}
	if s.cookie == "" || s.accountID == "" {
		h.t.Fatalf("login without cookie or account id: %v", r.header)
	}
	decode(h.t, r.body, &s.result)
	return s
}

func (s *sess) headers() map[string]string {
	return map[string]string{"Cookie": config.SessionCookie + "=" + s.cookie, config.HeaderAccountID: s.accountID}
}

func (s *sess) do(method, path string, body any) response {
	s.h.t.Helper()
	return s.h.do(method, path, body, s.headers())
}

func decode(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}

// wantError checks a rejection: HTTP status, D7 body with the code, the
// body's status equal to the HTTP one, and (if given) words of the message.
func wantError(t *testing.T, r response, code exchange.Code, words ...string) {
	t.Helper()
	var e exchange.ErrorBody
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("error body %q: %v", r.body, err)
	}
	if r.status != code.Status() || e.Code != int(code) || e.Status != r.status {
		t.Fatalf("got HTTP %d %s, want HTTP %d code %d", r.status, r.body, code.Status(), code)
	}
	for _, w := range words {
		if !strings.Contains(e.Message, w) {
			t.Errorf("message %q lacks %q", e.Message, w)
		}
	}
}

func wantStatus(t *testing.T, r response, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("got HTTP %d %s, want %d", r.status, r.body, status)
	}
}

func key(t testing.TB, hexKey string) *signer.PrivateKey {
	t.Helper()
	k, err := signer.ParsePrivateKeyHex(hexKey)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func (h *harness) domain() signer.Domain {
	return signer.Domain{Name: signer.DefaultDomainName, ChainID: DefaultChainID}
}

func (h *harness) sign(k signer.Key, m signer.Message) signer.Signature {
	h.t.Helper()
	s, err := signer.Sign(context.Background(), k, h.domain(), m)
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// walletLogin builds a login request signed by k for its own address.
func (h *harness) walletLogin(k signer.Key, nonce uint32, exp time.Time) exchange.WalletLoginRequest {
	m := signer.WalletLogin{Signer: k.Address(), Nonce: nonce, Expiration: exp.UnixNano()}
	return exchange.WalletLoginRequest{Address: k.Address().Hex(), Signature: exchange.NewSignature(h.sign(k, m))}
}

// transfer is the Transfer a withdrawal of amount from funding signs.
func transfer(t testing.TB, funding string, amount decimal.Decimal, nonce uint32, exp time.Time) signer.Transfer {
	t.Helper()
	raw, err := exchange.RawUnits(amount)
	if err != nil {
		t.Fatal(err)
	}
	return signer.Transfer{
		FromAccount: common.HexToAddress(funding), ToAccount: common.HexToAddress(BridgeFundingAddress),
		TokenCurrency: signer.USDTCurrency, NumTokens: raw, Nonce: nonce, Expiration: exp.UnixNano(),
	}
}

// quote asks for a USDT quote and requires success.
func (s *sess) quote(to, chain, amount string) exchange.Quote {
	s.h.t.Helper()
	r := s.do(http.MethodPost, exchange.PathWithdrawalQuote, exchange.QuoteRequest{
		ToAddress: to, Chain: chain, TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: amount,
	})
	wantStatus(s.h.t, r, http.StatusOK)
	var q exchange.Quote
	decode(s.h.t, r.body, &q)
	return q
}

// withdrawBody signs the quote's Transfer with k for the account funded by funding.
func (s *sess) withdrawBody(q exchange.Quote, k signer.Key, funding string, nonce uint32) exchange.WithdrawRequest {
	m := transfer(s.h.t, funding, q.PayAmount, nonce, s.h.clock.Now().Add(24*time.Hour))
	return exchange.WithdrawRequest{QuoteID: q.QuoteID, Signature: exchange.NewWithdrawSignature(s.h.sign(k, m))}
}

func (s *sess) withdraw(body any) response {
	s.h.t.Helper()
	return s.do(http.MethodPost, exchange.PathWithdraw, body)
}

func (s *sess) status(quoteID string) exchange.Withdrawal {
	s.h.t.Helper()
	r := s.do(http.MethodGet, exchange.PathWithdrawalStatus+"?quote_id="+quoteID, nil)
	wantStatus(s.h.t, r, http.StatusOK)
	var w exchange.Withdrawal
	decode(s.h.t, r.body, &w)
	return w
}

// toMap turns a request into a generic JSON object so a test can break one field.
func toMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func sigMap(m map[string]any) map[string]any { return m["signature"].(map[string]any) }
