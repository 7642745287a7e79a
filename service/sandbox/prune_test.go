package sandbox

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// held counts what the exchange keeps in memory, after pruning at its clock.
type held struct{ sessions, quotes, nonces int }

func (h *harness) held() held {
	h.ex.lock()
	defer h.ex.mu.Unlock()
	return held{len(h.ex.sessions), len(h.ex.quotes), len(h.ex.nonces)}
}

func quoteReq(amount string) exchange.QuoteRequest {
	return exchange.QuoteRequest{ToAddress: DestCompleted, Chain: "BASE", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT, Amount: amount}
}

// TestExpiredQuoteDropped: an unexecuted quote is kept for quoteKeep after
// it expires (withdraw says 9103, status CREATED), then forgotten: 404 for
// both, and nothing of it is left in memory.
func TestExpiredQuoteDropped(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	q := s.quote(DestCompleted, "BASE", "10")
	body := s.withdrawBody(q, key(t, DemoPrivateKey), DemoAddress, 1)
	h.clock.Advance(DefaultQuoteTTL + time.Second)
	wantError(t, s.withdraw(body), exchange.CodeQuoteExpired)
	h.clock.Advance(quoteKeep - 2*time.Second)
	if w := s.status(q.QuoteID); w.State != exchange.StateCreated {
		t.Fatalf("kept quote state %s", w.State)
	}
	h.clock.Advance(time.Second)
	wantError(t, s.do(http.MethodGet, exchange.PathWithdrawalStatus+"?quote_id="+q.QuoteID, nil), exchange.CodeNotFound)
	wantError(t, s.withdraw(body), exchange.CodeNotFound)
	if got := h.held(); got.quotes != 0 {
		t.Fatalf("%d quotes held after expiry", got.quotes)
	}
}

// TestWithdrawalOutlivesItsQuote: an executed quote is a withdrawal, found
// by status long after the quote would have expired and been dropped.
func TestWithdrawalOutlivesItsQuote(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	q := s.quote(DestCompleted, "BASE", "10")
	wantStatus(t, s.withdraw(s.withdrawBody(q, key(t, DemoPrivateKey), DemoAddress, 1)), http.StatusAccepted)
	h.clock.Advance(30 * 24 * time.Hour)
	s = h.login(DemoAPIKey)
	if w := s.status(q.QuoteID); w.State != exchange.StateCompleted || w.WithdrawTxHash == "" {
		t.Fatalf("withdrawal after 30 days: %+v", w)
	}
	if got := h.held(); got.quotes != 1 {
		t.Fatalf("%d quotes held, want the withdrawal", got.quotes)
	}
}

// TestQuoteCap: an account holds at most MaxQuotes unexecuted quotes; the
// next is refused with 429, code 1006 and a Retry-After that ends when the
// oldest expires. An executed quote frees its place, and so does an expired
// one, at once.
func TestQuoteCap(t *testing.T) {
	h := newHarness(t, Options{MaxQuotes: 2})
	s := h.login(DemoAPIKey)
	q1 := s.quote(DestCompleted, "BASE", "10")
	h.clock.Advance(10 * time.Second)
	q2 := s.quote(DestCompleted, "BASE", "10")
	r := s.do(http.MethodPost, exchange.PathWithdrawalQuote, quoteReq("10"))
	wantError(t, r, exchange.CodeRateLimited, "2 unexecuted quotes")
	// q1 expires 60 s after t0 and can still execute at that instant.
	if got := r.header.Get("Retry-After"); got != "51" {
		t.Fatalf("Retry-After %q, want 51", got)
	}
	// Another account has its own room.
	h.login(NoChainAPIKey).quote(DestCompleted, "BASE", "10")

	wantStatus(t, s.withdraw(s.withdrawBody(q1, key(t, DemoPrivateKey), DemoAddress, 1)), http.StatusAccepted)
	h.clock.Advance(5 * time.Second)
	q3 := s.quote(DestCompleted, "BASE", "10")
	wantError(t, s.do(http.MethodPost, exchange.PathWithdrawalQuote, quoteReq("10")), exchange.CodeRateLimited)

	h.clock.Advance(DefaultQuoteTTL + time.Nanosecond) // q2 has expired; q3 is live
	s.quote(DestCompleted, "BASE", "10")
	wantError(t, s.do(http.MethodGet, exchange.PathWithdrawalStatus+"?quote_id="+q2.QuoteID, nil), exchange.CodeNotFound)
	s.status(q1.QuoteID)
	s.status(q3.QuoteID)
}

// TestSessionCap: an account keeps at most MaxSessions sessions; a login
// beyond ends its oldest, whose cookie is then refused with 401. Another
// account's sessions are untouched.
func TestSessionCap(t *testing.T) {
	h := newHarness(t, Options{MaxSessions: 2})
	other := h.login(NoChainAPIKey)
	first := h.login(DemoAPIKey)
	second := h.login(DemoAPIKey)
	third := h.login(DemoAPIKey)
	info := exchange.PathWithdrawalInfo
	wantError(t, first.do(http.MethodGet, info, nil), exchange.CodeNotAuthenticated, "log in again")
	for _, s := range []*sess{second, third, other} {
		wantStatus(t, s.do(http.MethodGet, info, nil), http.StatusOK)
	}
	if got := h.held(); got.sessions != 3 {
		t.Fatalf("%d sessions held, want 3", got.sessions)
	}
}

// TestExpiredSessionsDropped: sessions are forgotten when they expire,
// whatever request comes next.
func TestExpiredSessionsDropped(t *testing.T) {
	h := newHarness(t, Options{SessionTTL: time.Hour})
	for range 5 {
		h.login(DemoAPIKey)
		h.clock.Advance(time.Minute)
	}
	h.clock.Advance(time.Hour - 3*time.Minute) // the first three have expired
	if got := h.held(); got.sessions != 2 {
		t.Fatalf("%d sessions held, want 2", got.sessions)
	}
	h.clock.Advance(time.Hour)
	if got := h.held(); got.sessions != 0 {
		t.Fatalf("%d sessions held after all expired", got.sessions)
	}
}

// TestNoncePrunedOnlyOnceExpired: a login nonce whose signature expired is
// dropped, while one still inside its window stays and its replay is
// refused; past its window the replay is refused as expired.
func TestNoncePrunedOnlyOnceExpired(t *testing.T) {
	h := newHarness(t, Options{})
	demo := key(t, DemoPrivateKey)
	long := h.walletLogin(demo, 7, t0.Add(5*time.Minute))
	wantStatus(t, h.do(http.MethodPost, exchange.PathWalletLogin, long, nil), http.StatusOK)
	wantStatus(t, h.do(http.MethodPost, exchange.PathWalletLogin, h.walletLogin(demo, 8, t0.Add(time.Minute)), nil), http.StatusOK)
	h.clock.Advance(2 * time.Minute)
	if got := h.held(); got.nonces != 1 {
		t.Fatalf("%d nonces held, want nonce 7 only", got.nonces)
	}
	wantError(t, h.do(http.MethodPost, exchange.PathWalletLogin, long, nil), exchange.CodeNotAuthenticated, "signature already used")
	h.clock.Advance(3 * time.Minute)
	wantError(t, h.do(http.MethodPost, exchange.PathWalletLogin, long, nil), exchange.CodeNotAuthenticated, "signature expired")
	if got := h.held(); got.nonces != 0 {
		t.Fatalf("%d nonces held after every signature expired", got.nonces)
	}
}

// TestTransferNonceOutlivesQuotes: a withdrawal's nonce is refused for a new
// withdrawal while its signature is valid, after its quote and every other
// quote were dropped.
func TestTransferNonceOutlivesQuotes(t *testing.T) {
	h := newHarness(t, Options{})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	q1 := s.quote(DestCompleted, "BASE", "10")
	wantStatus(t, s.withdraw(s.withdrawBody(q1, demo, DemoAddress, 9)), http.StatusAccepted)
	h.clock.Advance(23 * time.Hour) // the signature was made for 24 hours
	q2 := s.quote(DestCompleted, "BASE", "10")
	m := transfer(t, DemoAddress, q2.PayAmount, 9, t0.Add(24*time.Hour))
	replay := exchange.WithdrawRequest{QuoteID: q2.QuoteID, Signature: exchange.NewWithdrawSignature(h.sign(demo, m))}
	wantError(t, s.withdraw(replay), exchange.CodeDuplicateSignature)
}

// TestDailyLimitCountsTheSubmittedDay: a refund that lands after midnight
// gives back the day it was withdrawn on, not the new day.
func TestDailyLimitCountsTheSubmittedDay(t *testing.T) {
	h := newHarness(t, Options{})
	demo := key(t, DemoPrivateKey)
	h.clock.Set(time.Date(2026, 3, 2, 23, 59, 58, 0, time.UTC))
	s := h.login(DemoAPIKey)
	q := s.quote(DestRefunded, "BASE", "3000")
	wantStatus(t, s.withdraw(s.withdrawBody(q, demo, DemoAddress, 1)), http.StatusAccepted)
	h.clock.Advance(3 * time.Second) // the next UTC day, before the refund
	q = s.quote(DestCompleted, "BASE", "3000")
	wantStatus(t, s.withdraw(s.withdrawBody(q, demo, DemoAddress, 2)), http.StatusAccepted)
	h.clock.Advance(DefaultSettle) // the refund lands
	wantBalance(t, h, DemoAccountID, "7000")
	wantError(t, s.do(http.MethodPost, exchange.PathWithdrawalQuote, quoteReq("2000.01")), exchange.CodeLimitReached, "2000 USDT left")
	s.quote(DestCompleted, "BASE", "2000")
}

// TestQueryValueIsQueryGet: the status call's parameter is read as
// url.Values.Get reads it, for the forms a query may take.
func TestQueryValueIsQueryGet(t *testing.T) {
	for _, raw := range []string{
		"", "quote_id=q-1", "a=1&quote_id=q-2&quote_id=q-3", "quote%5Fid=q%2D4", "quote_id=q+5",
		"quote_id=%zz&quote_id=q-6", "quote_id=q-7;x=1&quote_id=q-8", "quote_id", "&&quote_id=&quote_id=q-9", "%zz=1&quote_id=q-10",
	} {
		want := (&url.URL{RawQuery: raw}).Query().Get("quote_id")
		if got := queryValue(raw, "quote_id"); got != want {
			t.Errorf("%q: got %q, want %q", raw, got, want)
		}
	}
}
