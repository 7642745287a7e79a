package exchange_test

import (
	"bytes"
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
)

// TestRenewalAnsweringAnotherAccountEnds: a renewal of the session (the
// client's clock said it lapsed, or the service answered 401) whose login
// answers another account id, funding account or sub-account ends the
// session: nothing more is sent, as either account, and the call says
// which account the login answered. A withdrawal signed for the first
// account was otherwise sent, resumed and followed as the second's.
func TestRenewalAnsweringAnotherAccountEnds(t *testing.T) {
	answers := map[string]func(*http.Response){
		"account id": func(r *http.Response) { r.Header.Set(config.HeaderAccountID, sandbox.NoChainAccountID) },
		"funding account": func(r *http.Response) {
			b, _ := io.ReadAll(r.Body)
			b = bytes.ReplaceAll(b, []byte(sandbox.DemoAddress), []byte(sandbox.NoChainAddress))
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
			r.Header.Del("Content-Length")
		},
		"sub-account": func(r *http.Response) {
			b, _ := io.ReadAll(r.Body)
			b = bytes.Replace(b, []byte(`{`), []byte(`{"sub_account_id":"sub-9",`), 1)
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
			r.Header.Del("Content-Length")
		},
	}
	for name, other := range answers {
		for _, how := range []string{"lapsed", "401"} {
			t.Run(name+" "+how, func(t *testing.T) {
				w := newWorld(t, sandbox.Options{SessionTTL: time.Hour})
				var renewing atomic.Bool
				rec := &recorder{Answer: func(r *http.Response) {
					if renewing.Load() && r.Request.URL.Path == exchange.PathAPIKeyLogin {
						other(r)
					}
				}}
				opts := exchange.Options{HTTPClient: rec.HTTPClient(), Now: w.Clock.Now}
				if how == "401" {
					// The client never sees time pass: the service's 401 renews.
					opts.Now = func() time.Time { return t0 }
				}
				c := exchange.New(w.Env, opts)
				if _, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
					t.Fatal(err)
				}
				was, _ := c.Session()
				renewing.Store(true)
				w.Clock.Advance(time.Hour)
				infos := rec.Count(exchange.PathWithdrawalInfo)
				_, err := c.WithdrawalInfo(ctx)
				ended, ok := errors.AsType[*exchange.SessionEndedError](err)
				if !ok {
					t.Fatalf("renewal answering another %s: %v, want the session ended", name, err)
				}
				if said := exchange.Explain(err).Error(); !strings.Contains(said, "another account") || !strings.Contains(said, "log in again") {
					t.Fatalf("said %q", said)
				}
				if ended.Kept {
					t.Fatal("said as a kept session refused")
				}
				if _, in := c.Session(); in {
					t.Fatal("still logged in after a renewal answered another account")
				}
				sent := rec.Count(exchange.PathWithdrawalInfo) - infos
				if want := map[string]int{"lapsed": 0, "401": 1}[how]; sent != want {
					t.Fatalf("withdrawal info sent %d times, want %d (the first, on %s's session, only)", sent, want, was.AccountID)
				}
				if _, err := c.WithdrawalInfo(ctx); !exchange.NotSent(err) {
					t.Fatalf("a call after it: %v, want nothing sent", err)
				}
			})
		}
	}
}

// TestRenewalOfAKeptSessionWithoutItsFundingAccount: a session kept by an
// earlier version, which names no funding account, is renewed as its
// account's: only what it names is held against the renewed login.
// One whose funding account is written without its 0x (the session
// file's shape allows it) is its account's too.
func TestRenewalOfAKeptSessionWithoutItsFundingAccount(t *testing.T) {
	for name, funding := range map[string]string{"none": "", "without 0x": strings.ToLower(sandbox.DemoAddress[2:])} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, sandbox.Options{SessionTTL: time.Hour})
			c := w.Login(sandbox.DemoAPIKey, exchange.Options{})
			k, _ := c.Kept()
			k.FundingAccountAddress = funding
			c.Adopt(k, exchange.APIKey(sandbox.DemoAPIKey))
			w.Clock.Advance(time.Hour)
			if _, err := c.WithdrawalInfo(ctx); err != nil {
				t.Fatalf("renewing a kept session whose funding account is %q: %v", funding, err)
			}
			if s, _ := c.Session(); !strings.EqualFold(s.FundingAccountAddress, sandbox.DemoAddress) {
				t.Fatalf("renewed session's funding account %q", s.FundingAccountAddress)
			}
		})
	}
}

// TestRenewalAfterALoginMeanwhile: a login made while a lapsed session was
// being renewed (the person logged in again, as another account or the
// same) stays: the renewal, landing after it, is dropped, never put over
// it. What was asked on the lapsed session is asked again on the new one
// only when it is that account's: a withdraw refused 401 was otherwise
// sent again as the other account's.
func TestRenewalAfterALoginMeanwhile(t *testing.T) {
	for _, tc := range []struct{ meanwhile, how string }{
		{sandbox.NoChainAPIKey, "401"}, {sandbox.DemoAPIKey, "401"}, {sandbox.NoChainAPIKey, "lapsed"}, {sandbox.DemoAPIKey, "lapsed"},
	} {
		meanwhile := tc.meanwhile
		t.Run(meanwhile+" "+tc.how, func(t *testing.T) {
			w := newWorld(t, sandbox.Options{SessionTTL: time.Hour})
			var c *exchange.Client
			var renewing, once atomic.Bool
			rec := &recorder{Answer: func(r *http.Response) {
				if renewing.Load() && r.Request.URL.Path == exchange.PathAPIKeyLogin && once.CompareAndSwap(false, true) {
					if _, err := c.Login(ctx, exchange.APIKey(meanwhile)); err != nil {
						t.Error(err)
					}
				}
			}}
			now := func() time.Time { return t0 } // the service's 401 renews
			if tc.how == "lapsed" {
				now = w.Clock.Now
			}
			c = exchange.New(w.Env, exchange.Options{HTTPClient: rec.HTTPClient(), Now: now})
			if _, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
				t.Fatal(err)
			}
			renewing.Store(true)
			w.Clock.Advance(time.Hour)
			_, err := c.WithdrawalInfo(ctx)
			s, in := c.Session()
			cookies := rec.Cookies()
			if !in || rec.Logins() != 3 {
				t.Fatalf("logged in %v after %d logins", in, rec.Logins())
			}
			// The login made meanwhile set the third cookie the recorder
			// saw (the renewal's answer is read after it).
			if got, _ := c.Kept(); got.Cookie != cookies[1] {
				t.Fatalf("the session is %q; want the login made meanwhile's %q, not the renewal's", got.Cookie, cookies[1])
			}
			asked := 0
			for _, r := range rec.Requests() {
				if r.URL.Path == exchange.PathWithdrawalInfo && r.Header.Get(config.HeaderAccountID) != sandbox.DemoAccountID {
					t.Fatalf("asked as %s", r.Header.Get(config.HeaderAccountID))
				}
				if r.URL.Path == exchange.PathWithdrawalInfo {
					asked++
				}
			}
			// Asked first on the lapsed session when the 401 renews it.
			first := map[string]int{"401": 1, "lapsed": 0}[tc.how]
			if meanwhile == sandbox.DemoAPIKey {
				if err != nil || asked != first+1 || s.AccountID != sandbox.DemoAccountID {
					t.Fatalf("a login of the same account meanwhile: %v, asked %d times", err, asked)
				}
				return
			}
			// Not ended: the login made meanwhile is the person's own.
			if _, ended := errors.AsType[*exchange.SessionEndedError](err); ended || !errors.As(err, new(*exchange.OtherAccountError)) || asked != first || s.AccountID != sandbox.NoChainAccountID {
				t.Fatalf("a login of another account meanwhile: %v, asked %d times, session %s", err, asked, s.AccountID)
			}
			if said := exchange.Explain(err).Error(); !strings.Contains(said, "is not asked as "+sandbox.NoChainAccountID) || !strings.Contains(said, sandbox.NoChainAccountID) {
				t.Fatalf("said %q", said)
			}
		})
	}
}
