package exchange_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// holds finds, through every string of a Go value, one that holds secret.
func holds(v reflect.Value, secret string) (string, bool) {
	switch v.Kind() {
	case reflect.String:
		if strings.Contains(v.String(), secret) {
			return v.String(), true
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				if s, ok := holds(v.Field(i), secret); ok {
					return s, true
				}
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if s, ok := holds(v.Index(i), secret); ok {
				return s, true
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if s, ok := holds(k, secret); ok {
				return s, true
			}
			if s, ok := holds(v.MapIndex(k), secret); ok {
				return s, true
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return holds(v.Elem(), secret)
		}
	}
	return "", false
}

// TestOwnSecretNeverSaidBack: a hostile service puts the session's own API
// key or cookie into every string of every answer, and into the message of
// an error answer to every request: neither the answer the client returns,
// nor its error, nor the error's explanation carries it (a screen, --json,
// a journal line or a shared terminal would show it).
func TestOwnSecretNeverSaidBack(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{Retry: exchange.RetryPolicy{Attempts: 1, Sleep: noSleep}})
	// A login is answered by a client already logged in, whose cookie it
	// could say back; each secret is read as the attack starts, since a
	// login again (after a 401) changes the cookie.
	lc := w.Login(sandbox.DemoAPIKey, exchange.Options{Retry: exchange.RetryPolicy{Attempts: 1, Sleep: noSleep}})
	key := mustKey(t, sandbox.DemoPrivateKey)
	cookieOf := func(c *exchange.Client) string { k, _ := c.Kept(); return k.Cookie }

	var quoteID string
	endpoints := []struct {
		path   string
		client *exchange.Client
		call   func() (any, error)
	}{
		{exchange.PathAPIKeyLogin, lc, func() (any, error) { return lc.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)) }},
		{exchange.PathDepositAddresses, c, func() (any, error) { return c.DepositAddresses(ctx) }},
		{exchange.PathGenerateAddress, c, func() (any, error) { return c.GenerateAddress(ctx, "SOLANA") }},
		{exchange.PathWithdrawalInfo, c, func() (any, error) { return c.WithdrawalInfo(ctx) }},
		{exchange.PathWithdrawalQuote, c, func() (any, error) { return w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10") }},
		{exchange.PathWithdraw, c, func() (any, error) {
			q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
			if err != nil {
				return nil, err
			}
			return c.Withdraw(ctx, w.signWithdraw(c, q, key, nil))
		}},
		{exchange.PathWithdrawalStatus, c, func() (any, error) { return c.WithdrawalStatus(ctx, quoteID) }},
	}
	q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Withdraw(ctx, w.signWithdraw(c, q, key, nil)); err != nil {
		t.Fatal(err)
	}
	quoteID = q.QuoteID
	w.Clock.Advance(time.Hour)

	check := func(what string, got any, err error, secret string) {
		t.Helper()
		if err != nil {
			for _, shown := range []string{err.Error(), exchange.Explain(err).Error()} {
				if strings.Contains(shown, secret) {
					t.Errorf("%s: the error says it back: %q", what, shown)
				}
			}
			return
		}
		if s, ok := holds(reflect.ValueOf(got), secret); ok {
			t.Errorf("%s: the answer carries it: %q", what, s)
		}
	}
	attacks := 0
	for _, ep := range endpoints {
		var sample []byte
		h.set(func(p string, body []byte) []byte {
			if p == ep.path {
				sample = append([]byte(nil), body...)
			}
			return body
		})
		if _, err := ep.call(); err != nil {
			t.Fatalf("%s without attack: %v", ep.path, err)
		}
		var v any
		if err := json.Unmarshal(sample, &v); err != nil {
			t.Fatalf("%s sample: %v", ep.path, err)
		}
		var leaves []string
		stringLeaves(v, "", &leaves)
		for _, name := range []string{"API key", "cookie"} {
			secretOf := func() string {
				if name == "API key" {
					return sandbox.DemoAPIKey
				}
				return cookieOf(ep.client)
			}
			for _, leaf := range leaves {
				secret := secretOf()
				h.set(onPath(ep.path, func(v any) any { return inject(v, leaf, secret) }))
				got, err := ep.call()
				attacks++
				check(fmt.Sprintf("%s %s with the %s", ep.path, leaf, name), got, err, secret)
			}
			// An error answer whose message says the secret back.
			for _, status := range []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusInternalServerError} {
				secret := secretOf()
				h.next = errorWith(h.next, ep.path, status, secret)
				h.set(nil)
				got, err := ep.call()
				attacks++
				check(fmt.Sprintf("%s %d with the %s", ep.path, status, name), got, err, secret)
				h.next = h.next.(errorAnswer).next
			}
		}
	}
	h.set(nil)
	t.Logf("%d attacks", attacks)
}

// errorAnswer answers path with status and a message holding secret.
type errorAnswer struct {
	next   http.Handler
	path   string
	status int
	secret string
}

func errorWith(next http.Handler, path string, status int, secret string) http.Handler {
	return errorAnswer{next, path, status, secret}
}

func (e errorAnswer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != e.path {
		e.next.ServeHTTP(w, r)
		return
	}
	w.WriteHeader(e.status)
	b, _ := json.Marshal(map[string]any{"code": 1003, "message": "invalid credential " + e.secret + " for this request", "status": e.status})
	w.Write(b)
}

// TestLoginNeverSaysBackItsCredential: a login whose account-id header
// holds the API key, or whose body says back the cookie it sets, is
// refused naming where: the account id is shown and journaled, the body
// shown.
func TestLoginNeverSaysBackItsCredential(t *testing.T) {
	const apiKey, cookie = "AK-hostile-reflected-1", "CK-hostile-session-cookie-1"
	for name, tc := range map[string]struct{ account, location, field string }{
		"account id holds the API key": {"acct-" + apiKey, "/", "an account id"},
		"body says back the cookie":    {"acct-1", "/home?s=" + cookie, "a location"},
	} {
		t.Run(name, func(t *testing.T) {
			var env config.Environment
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.SetCookie(w, &http.Cookie{Name: env.Cookie(), Value: cookie})
				w.Header().Set(env.AccountHeader(), tc.account)
				json.NewEncoder(w).Encode(map[string]any{"status": "success", "location": tc.location,
					"funding_account_address": sandbox.DemoAddress, "sub_account_id": "1"})
			}))
			t.Cleanup(srv.Close)
			env = config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
			_, err := exchange.New(env, exchange.Options{}).Login(ctx, exchange.APIKey(apiKey))
			if err == nil {
				t.Fatal("a login saying back its credential was taken")
			}
			if !strings.Contains(err.Error(), "sent "+tc.field+" that holds your own API key") {
				t.Fatalf("the refusal does not say %s: %v", tc.field, err)
			}
			for _, s := range []string{apiKey, cookie} {
				if strings.Contains(err.Error(), s) {
					t.Fatalf("the refusal says it back: %v", err)
				}
			}
		})
	}
}

// TestLoginCookieBounded: a session cookie longer than a browser keeps is
// refused, saying so, before it is looked for through the answer (a cookie
// of megabytes built a finder of hundreds of megabytes) or sent again; one
// of the bound is taken.
func TestLoginCookieBounded(t *testing.T) {
	for n, refused := range map[int]bool{exchange.MaxCookieValue: false, exchange.MaxCookieValue + 1: true} {
		var env config.Environment
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: env.Cookie(), Value: strings.Repeat("c", n)})
			w.Header().Set(env.AccountHeader(), "acct-1")
			json.NewEncoder(w).Encode(map[string]any{"status": "success", "location": "/",
				"funding_account_address": sandbox.DemoAddress, "sub_account_id": "1"})
		}))
		env = config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
		_, err := exchange.New(env, exchange.Options{}).Login(ctx, exchange.APIKey("AK-bounded-cookie-1"))
		srv.Close()
		if got := err != nil && strings.Contains(err.Error(), "sent a session cookie that is longer than 4096 bytes"); got != refused {
			t.Fatalf("a cookie of %d bytes: %v", n, err)
		}
		if !refused && err != nil {
			t.Fatalf("a cookie of %d bytes refused: %v", n, err)
		}
	}
}

// TestCertificateRefusalSaid: a host whose TLS certificate is not trusted
// is said as such, in fixed words (a certificate's names are the host's to
// choose), not as a "network error" that sends the user to the network.
func TestCertificateRefusalSaid(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(srv.Close)
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	for name, tc := range map[string]struct {
		url    string
		client *http.Client
		says   string
	}{
		"an authority not trusted": {srv.URL, nil, "its TLS certificate is signed by no authority this system trusts"},
		// httptest's certificate names 127.0.0.1 and example.com, not localhost.
		"another host's": {"https://localhost" + port, srv.Client(), "its TLS certificate is for another host"},
	} {
		t.Run(name, func(t *testing.T) {
			c := exchange.New(config.SandboxEnvironment(tc.url, sandbox.DefaultChainID), exchange.Options{HTTPClient: tc.client})
			_, err := c.Login(ctx, exchange.APIKey("AK-certificate-test"))
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("got %v, want it to say %q", err, tc.says)
			}
		})
	}
}

// TestPartOfOwnSecretNeverSaidBack: a run of 12 characters of the API key,
// in a message or a field, is said back as much as the whole key is
// ("invalid key AKlive0123456789…"); a letter whose lower case is longer
// (İ) before it moves no mask, and the rest of the message stays.
func TestPartOfOwnSecretNeverSaidBack(t *testing.T) {
	const apiKey = "AKlive0123456789secretkey"
	for name, tc := range map[string]struct {
		status int
		body   string
		runs   []string
	}{
		"its first 16 characters":   {401, `{"code":1001,"message":"İİİİ invalid key AKLIVE0123456789… (see docs)","status":401}`, []string{"AKLIVE0123456789", "AKlive0123456789"}},
		"its last 12 in two places": {400, `{"code":1003,"message":"6789secretkey and 789SECRETKEY","status":400}`, []string{"789secretkey", "789SECRETKEY"}},
		// Its end before its start: each run is masked wherever it stands.
		"its end, then its start":      {400, `{"code":1003,"message":"key 6789secretkey, that is AKlive012345…","status":400}`, []string{"6789secretkey", "AKlive012345"}},
		"a run of it in a login field": {200, `{"status":"ok 0123456789secret","location":"/","funding_account_address":"` + sandbox.DemoAddress + `"}`, []string{"0123456789secret"}},
	} {
		t.Run(name, func(t *testing.T) {
			var env config.Environment
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.SetCookie(w, &http.Cookie{Name: env.Cookie(), Value: "CK-session-cookie-of-test-1"})
				w.Header().Set(env.AccountHeader(), "acct-1")
				w.WriteHeader(tc.status)
				w.Write([]byte(tc.body))
			}))
			t.Cleanup(srv.Close)
			env = config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
			_, err := exchange.New(env, exchange.Options{}).Login(ctx, exchange.APIKey(apiKey))
			if err == nil {
				t.Fatal("taken")
			}
			for _, shown := range []string{err.Error(), exchange.Explain(err).Error()} {
				for _, run := range tc.runs {
					if strings.Contains(shown, run) {
						t.Fatalf("says back %q: %s", run, shown)
					}
				}
				if tc.status == 401 && !strings.Contains(shown, "İİİİ invalid key [your credential, not shown]… (see docs)") {
					t.Fatalf("the message around the mask is lost: %s", shown)
				}
			}
		})
	}
}

// TestOwnSecretNeverSaidBackByARefusal: an answer refused for its shape
// whose refusal names what it holds (a route's chain, a field named twice)
// does not say back the API key put there: the refusal comes before the
// answer is looked through for it.
func TestOwnSecretNeverSaidBackByARefusal(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
	for name, attack := range map[string]func(v map[string]any){
		"a route's chain of another type": func(v map[string]any) {
			v["route"] = map[string]any{"USDT": []any{map[string]any{
				"chain": sandbox.DemoAPIKey, "chain_id": "56", "chain_type": "tron", "tokens_out": []any{"USDT"}}}}
		},
		"a field named twice": func(v map[string]any) {
			v[sandbox.DemoAPIKey], v[strings.ToUpper(sandbox.DemoAPIKey)] = 1, 2
		},
	} {
		t.Run(name, func(t *testing.T) {
			h.set(onPath(exchange.PathWithdrawalInfo, func(v any) any { attack(v.(map[string]any)); return v }))
			_, err := c.WithdrawalInfo(ctx)
			if err == nil {
				t.Fatal("taken")
			}
			for _, shown := range []string{err.Error(), exchange.Explain(err).Error()} {
				if strings.Contains(strings.ToLower(shown), sandbox.DemoAPIKey) {
					t.Fatalf("says it back: %s", shown)
				}
			}
		})
	}
	h.set(nil)
}
