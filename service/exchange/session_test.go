package exchange_test

import (
	"bytes"
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
	"github.com/svcwallet/svcwallet/signer"
)

// The session of D6: cookie svc plus the X-Service-Account-Id read from the
// login response, renewed by logging in again when it lapses or on a 401.

// TestSessionSendsAccountID: the account id the client sends is the one the
// login response's header named (an opaque id, not the funding address), on
// every bridge and deposit request, with the cookie the login set.
func TestSessionSendsAccountID(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	rec := &recorder{}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
	s, _ := c.Session()
	if s.AccountID != sandbox.DemoAccountID || strings.EqualFold(s.AccountID, s.FundingAccountAddress) {
		t.Fatalf("session account id %q (funding %s)", s.AccountID, s.FundingAccountAddress)
	}
	q, err := w.Quote(c, sandbox.DestCompleted, "BASE", "10")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Withdraw(ctx, w.signWithdraw(c, q, mustKey(t, sandbox.DemoPrivateKey), nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WithdrawalStatus(ctx, q.QuoteID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DepositAddresses(ctx); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, req := range rec.Requests() {
		if !strings.HasPrefix(req.URL.Path, "/api/v1/") {
			continue
		}
		seen[req.URL.Path] = true
		ck, err := req.Cookie(config.SessionCookie)
		if err != nil || ck.Value != rec.Cookies()[0] || req.Header.Get(config.HeaderAccountID) != sandbox.DemoAccountID {
			t.Errorf("%s %s: cookie %v (%v), account id %q", req.Method, req.URL.Path, ck, err, req.Header.Get(config.HeaderAccountID))
		}
	}
	if len(seen) != 5 {
		t.Fatalf("requests to %v, want the five session endpoints", seen)
	}
}

// TestSessionRenewedWhenLapsed: a session that has lapsed, or has less than
// 5 s left, is renewed by logging in again with the same credential before
// the next call, which then succeeds; with more left, nothing happens.
func TestSessionRenewedWhenLapsed(t *testing.T) {
	const ttl = 10 * time.Minute
	creds := map[string]func(t *testing.T) exchange.Credential{
		"api key": func(*testing.T) exchange.Credential { return exchange.APIKey(sandbox.DemoAPIKey) },
		"wallet":  func(t *testing.T) exchange.Credential { return exchange.Wallet(mustKey(t, sandbox.DemoPrivateKey)) },
	}
	for name, cred := range creds {
		for _, tc := range []struct {
			advance time.Duration
			logins  int
		}{
			{ttl - 6*time.Second, 1}, // 6 s left: used as is
			{ttl - 4*time.Second, 2}, // under 5 s left: renewed first
			{ttl, 2},                 // lapsed: renewed
			{3 * ttl, 2},             // long lapsed: renewed
		} {
			t.Run(name+" after "+tc.advance.String(), func(t *testing.T) {
				w := newWorld(t, sandbox.Options{SessionTTL: ttl})
				rec := &recorder{}
				c := w.Client(exchange.Options{HTTPClient: rec.HTTPClient()})
				if _, err := c.Login(ctx, cred(t)); err != nil {
					t.Fatal(err)
				}
				w.Clock.Advance(tc.advance)
				if _, err := c.WithdrawalInfo(ctx); err != nil {
					t.Fatalf("call after %s: %v", tc.advance, err)
				}
				if got := rec.Logins(); got != tc.logins {
					t.Fatalf("%d logins, want %d", got, tc.logins)
				}
				if got := rec.Count(exchange.PathWithdrawalInfo); got != 1 {
					t.Fatalf("withdrawal info sent %d times, want once (no 401 round trip)", got)
				}
				s, _ := c.Session()
				if want := w.Clock.Now().Add(ttl); tc.logins == 2 && !s.Expires.Equal(want) {
					t.Fatalf("renewed session expires %s, want %s", s.Expires, want)
				}
			})
		}
	}
}

// TestSessionMaxAge: a cookie with Max-Age lives that long from now on the
// client's clock, whatever its Expires says (RFC 6265 §5.3).
func TestSessionMaxAge(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	rec := &recorder{Answer: func(resp *http.Response) {
		if sc := resp.Header.Values("Set-Cookie"); len(sc) == 1 {
			resp.Header.Set("Set-Cookie", sc[0]+"; Max-Age=600")
		}
	}}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
	if s, _ := c.Session(); !s.Expires.Equal(t0.Add(600 * time.Second)) {
		t.Fatalf("session expires %s, want %s (Max-Age over the 24 h Expires)", s.Expires, t0.Add(600*time.Second))
	}
	w.Clock.Advance(600 * time.Second)
	if _, err := c.WithdrawalInfo(ctx); err != nil || rec.Logins() != 2 {
		t.Fatalf("after Max-Age: %v, %d logins; want a renewal", err, rec.Logins())
	}
}

// TestSessionReloginOn401: the client's clock says the session is alive
// but the service has dropped it; the 401 triggers one login and the call
// is repeated once and succeeds.
func TestSessionReloginOn401(t *testing.T) {
	w := newWorld(t, sandbox.Options{SessionTTL: time.Hour})
	rec := &recorder{}
	frozen := func() time.Time { return t0 } // the client never sees time pass
	c := exchange.New(w.Env, exchange.Options{HTTPClient: rec.HTTPClient(), Now: frozen})
	if _, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	w.Clock.Advance(time.Hour)
	q, err := w.Quote(c, sandbox.DestCompleted, "BASE", "10")
	if err != nil {
		t.Fatalf("quote after the service dropped the session: %v", err)
	}
	if rec.Logins() != 2 || rec.Count(exchange.PathWithdrawalQuote) != 2 {
		t.Fatalf("%d logins and %d quote requests, want 2 and 2", rec.Logins(), rec.Count(exchange.PathWithdrawalQuote))
	}
	if len(rec.Cookies()) != 2 || rec.Cookies()[0] == rec.Cookies()[1] {
		t.Fatalf("session cookies %d, want a fresh one", len(rec.Cookies()))
	}
	if st, err := c.WithdrawalStatus(ctx, q.QuoteID); err != nil || st.State != exchange.StateCreated {
		t.Fatalf("status on the renewed session: %+v, %v", st, err)
	}
}

// TestSessionReloginOnlyOnce: when the service still answers 401 after the
// re-login, the client gives up with the 401 instead of looping.
func TestSessionReloginOnlyOnce(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	rec := &recorder{Edit: func(r *http.Request) {
		if r.URL.Path == exchange.PathWithdrawalInfo {
			r.Header.Del("Cookie") // a proxy that eats the cookie
		}
	}}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
	_, err := c.WithdrawalInfo(ctx)
	wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	if rec.Logins() != 2 || rec.Count(exchange.PathWithdrawalInfo) != 2 {
		t.Fatalf("%d logins and %d info requests, want 2 and 2", rec.Logins(), rec.Count(exchange.PathWithdrawalInfo))
	}
}

// TestSessionReloginFails: when logging in again fails (here the login
// endpoint stops answering), the call fails with that login's error, once.
func TestSessionReloginFails(t *testing.T) {
	w := newWorld(t, sandbox.Options{SessionTTL: time.Minute})
	var broken atomic.Bool
	rec := &recorder{Edit: func(r *http.Request) {
		if broken.Load() && r.URL.Path == exchange.PathAPIKeyLogin {
			r.URL.Path = "/auth/gone"
		}
	}}
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
	broken.Store(true)
	w.Clock.Advance(time.Minute)
	_, err := c.WithdrawalInfo(ctx)
	wantAPIError(t, err, exchange.CodeNoSuchEndpoint, http.StatusNotFound)
	if !strings.Contains(err.Error(), "logging in again failed") {
		t.Fatalf("error %q does not say the renewal failed", err)
	}
	if rec.Count("/auth/gone") != 1 || rec.Count(exchange.PathWithdrawalInfo) != 0 {
		t.Fatalf("%d renewals and %d info requests, want 1 and 0", rec.Count("/auth/gone"), rec.Count(exchange.PathWithdrawalInfo))
	}
}

// TestSessionLoggedOutSendsNothing: without a session the bridge calls are
// refused locally; nothing is sent and nobody logs in.
func TestSessionLoggedOutSendsNothing(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	rec := &recorder{}
	c := w.Client(exchange.Options{HTTPClient: rec.HTTPClient()})
	_, err := c.Quote(ctx, exchange.QuoteRequest{ToAddress: sandbox.DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: "10"})
	wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	if n := len(rec.Requests()); n != 0 {
		t.Fatalf("%d requests sent without a session", n)
	}
}

// TestSessionWalletReloginRefused: a wallet login refused with 401 (here
// the re-login's body is the first login's, which the service answers
// "signature already used") ends the call with that reason, worded, after
// one attempt: a 401 at login never starts another login.
func TestSessionWalletReloginRefused(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	var first []byte
	rec := &recorder{Edit: func(r *http.Request) {
		switch r.URL.Path {
		case exchange.PathWithdrawalInfo:
			r.Header.Del("Cookie") // the service no longer knows the session
		case exchange.PathWalletLogin:
			b, err := io.ReadAll(r.Body)
			if err != nil {
				t.Error(err)
			}
			if first == nil {
				first = b
			}
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(first)), int64(len(first))
		}
	}}
	c := w.Client(exchange.Options{HTTPClient: rec.HTTPClient()})
	if _, err := c.Login(ctx, exchange.Wallet(mustKey(t, sandbox.DemoPrivateKey))); err != nil {
		t.Fatal(err)
	}
	_, err := c.WithdrawalInfo(ctx)
	wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
	wantLoginReason(t, err, "signature already used")
	if got := exchange.Explain(err).Error(); !strings.HasPrefix(got, "Login signature already used") {
		t.Errorf("explained as %q", got)
	}
	if rec.Logins() != 2 || rec.Count(exchange.PathWithdrawalInfo) != 1 {
		t.Fatalf("%d logins and %d info requests, want 2 and 1", rec.Logins(), rec.Count(exchange.PathWithdrawalInfo))
	}
}

// approvedKey is a key that waits for a person (as clef or a signing
// command does), counting the signatures asked of it.
type approvedKey struct {
	*signer.PrivateKey
	asked *atomic.Int32
}

func (approvedKey) Awaiting() string { return "approval in clef at http://127.0.0.1:8550" }

func (k approvedKey) SignTypedData(ctx context.Context, d signer.Domain, m signer.Message) ([65]byte, error) {
	k.asked.Add(1)
	return k.PrivateKey.SignTypedData(ctx, d, m)
}

// TestSessionWaitingKeyNotRenewed: a session logged in with a key that
// waits for a person is not renewed behind their back, neither when the
// client's clock says it lapsed nor on the service's 401: the call fails
// with "Session ended: log in again", naming what the login waits for,
// and the key is asked for nothing more.
func TestSessionWaitingKeyNotRenewed(t *testing.T) {
	for name, clientNow := range map[string]func(w *world) func() time.Time{
		"lapsed": func(w *world) func() time.Time { return w.Clock.Now },
		"401":    func(*world) func() time.Time { return func() time.Time { return t0 } },
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, sandbox.Options{SessionTTL: time.Hour})
			rec := &recorder{}
			c := exchange.New(w.Env, exchange.Options{HTTPClient: rec.HTTPClient(), Now: clientNow(w)})
			k := approvedKey{mustKey(t, sandbox.DemoPrivateKey), new(atomic.Int32)}
			if _, err := c.Login(ctx, exchange.Wallet(k)); err != nil {
				t.Fatal(err)
			}
			w.Clock.Advance(time.Hour)
			_, err := c.WithdrawalInfo(ctx)
			wantAPIError(t, err, exchange.CodeNotAuthenticated, http.StatusUnauthorized)
			if got := exchange.Explain(err).Error(); got != "Session ended: log in again (the login waits for approval in clef at http://127.0.0.1:8550, so svcwallet does not renew it on its own)" {
				t.Errorf("explained as %q", got)
			}
			if rec.Logins() != 1 || k.asked.Load() != 1 {
				t.Fatalf("%d logins and %d signatures asked, want the first login's alone", rec.Logins(), k.asked.Load())
			}
		})
	}
}

// TestKeptSessionRefused: a session adopted without a credential to renew
// it (kept in the file, no API key kept) that the service refuses ends in
// a SessionEndedError saying so once: the client forgets it, sends nothing
// more on it, and tells OnRefused which session it was, so the store stops
// offering it.
func TestKeptSessionRefused(t *testing.T) {
	w := newWorld(t, sandbox.Options{SessionTTL: time.Hour})
	first := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	k, _ := first.Kept()
	rec := &recorder{}
	var told []exchange.Kept
	c := exchange.New(w.Env, exchange.Options{HTTPClient: rec.HTTPClient(), Now: func() time.Time { return t0 },
		OnRefused: func(k exchange.Kept) { told = append(told, k) }})
	c.Adopt(k, nil)
	w.Clock.Advance(time.Hour) // the service drops it; the client's clock does not see it
	_, err := c.WithdrawalInfo(ctx)
	se, ok := errors.AsType[*exchange.SessionEndedError](err)
	if !ok || !se.Kept || !errors.Is(err, exchange.ErrUnauthenticated) {
		t.Fatalf("error %v, want a kept session's SessionEndedError", err)
	}
	if got := exchange.Explain(err).Error(); got != "The service refused the session (it ended or was revoked): log in again" {
		t.Errorf("explained as %q", got)
	}
	if len(told) != 1 || told[0].Cookie != k.Cookie {
		t.Errorf("OnRefused told %v, want the kept session once", told)
	}
	if _, ok := c.Session(); ok {
		t.Error("the refused session is still the client's")
	}
	if _, err := c.WithdrawalInfo(ctx); err == nil || rec.Count(exchange.PathWithdrawalInfo) != 1 {
		t.Errorf("after the refusal: %v, %d info requests sent, want 1", err, rec.Count(exchange.PathWithdrawalInfo))
	}
}

// TestUnauthenticatedSaidOnce: the service's words for a 401 are not
// added to ours, which say the same.
func TestUnauthenticatedSaidOnce(t *testing.T) {
	err := &exchange.APIError{Status: http.StatusUnauthorized, Code: exchange.CodeNotAuthenticated, Message: "session is unknown or expired; log in again"}
	if got := exchange.Explain(err).Error(); got != "Not logged in or the session ended: log in again" {
		t.Errorf("explained as %q", got)
	}
}

// TestARefusalSparesASessionThatCameMeanwhile: a session that replaced the
// refused one while the 401 was on its way (adopted from the store, with no
// credential either) is not the one refused: it is kept, and the request
// goes again on it.
func TestARefusalSparesASessionThatCameMeanwhile(t *testing.T) {
	w := newWorld(t, sandbox.Options{SessionTTL: time.Hour})
	old, _ := w.Login(sandbox.DemoAPIKey, exchange.Options{}).Kept()
	w.Clock.Advance(time.Hour) // the service drops the first session
	fresh, _ := w.Login(sandbox.DemoAPIKey, exchange.Options{}).Kept()
	var c *exchange.Client
	rec := &recorder{Answer: func(resp *http.Response) {
		if resp.StatusCode == http.StatusUnauthorized {
			c.Adopt(fresh, nil)
		}
	}}
	var told []exchange.Kept
	c = exchange.New(w.Env, exchange.Options{HTTPClient: rec.HTTPClient(), Now: func() time.Time { return t0 },
		OnRefused: func(k exchange.Kept) { told = append(told, k) }})
	c.Adopt(old, nil)
	if _, err := c.WithdrawalInfo(ctx); err != nil {
		t.Fatalf("the request on the session that came meanwhile: %v", err)
	}
	if s, ok := c.Session(); !ok || s.AccountID == "" || len(told) != 0 {
		t.Errorf("session kept %v, OnRefused told %v: the fresh session was taken for the refused one", ok, told)
	}
}

// TestSessionLifeCapped: a cookie's Max-Age or Expires beyond 400 days
// (RFC 6265bis caps a cookie's life there) is taken as 400 days: a Max-Age
// of centuries overflowed into a session that had ended centuries ago, so
// every request logged in again first.
func TestSessionLifeCapped(t *testing.T) {
	for name, attr := range map[string]string{
		"Max-Age of 317 years": "; Max-Age=10000000000",
		"Expires in 9999":      "; Expires=Fri, 31 Dec 9999 23:59:59 GMT",
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, sandbox.Options{})
			rec := &recorder{Answer: func(resp *http.Response) {
				if sc := resp.Header.Values("Set-Cookie"); len(sc) == 1 {
					resp.Header.Set("Set-Cookie", strings.Split(sc[0], ";")[0]+attr)
				}
			}}
			c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: rec.HTTPClient()})
			if s, _ := c.Session(); !s.Expires.Equal(t0.Add(exchange.MaxCookieLife)) {
				t.Fatalf("session expires %s, want %s", s.Expires, t0.Add(exchange.MaxCookieLife))
			}
			if _, err := c.WithdrawalInfo(ctx); err != nil || rec.Logins() != 1 {
				t.Fatalf("%v, %d logins; want the session used as it is", err, rec.Logins())
			}
		})
	}
}

// TestGivenAPIKey: $SVCWALLET_API_KEY is read trimmed, as APIKey sends it,
// and set blank is still a key given; unset is none.
func TestGivenAPIKey(t *testing.T) {
	for _, tc := range []struct {
		v, key string
		given  bool
	}{{"", "", false}, {"  ", "", true}, {" k-1\r\n", "k-1", true}, {"k-1", "k-1", true}} {
		key, given := exchange.GivenAPIKey(func(name string) string {
			if name != exchange.APIKeyEnvVar {
				return ""
			}
			return tc.v
		})
		if key != tc.key || given != tc.given {
			t.Errorf("%q: got %q, %v; want %q, %v", tc.v, key, given, tc.key, tc.given)
		}
	}
}
