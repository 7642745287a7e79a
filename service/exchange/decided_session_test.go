package exchange

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
)

// loginMeanwhile is a request body that, as the request is built (after
// the session it goes with was decided, before it is set on the request),
// logs the client in as another account: the window between Client.again
// and sessionStore.apply, which no answer of the service can open.
type loginMeanwhile struct {
	c       *Client
	key     string
	atBuild int // which building of the request logs in (1 = its first attempt)
	builds  *int
	err     *error
}

func (b loginMeanwhile) MarshalJSON() ([]byte, error) {
	if *b.builds++; *b.builds == b.atBuild {
		_, *b.err = b.c.Login(context.Background(), APIKey(b.key))
	}
	return []byte(`{}`), nil
}

// TestRequestGoesWithTheSessionDecidedForIt: a request after a renewal
// (the session lapsed, or the service answered 401) carries the session
// it was decided to go with (call.with), the renewed one, and never one a
// login made since replaced it with: it went as another account's.
func TestRequestGoesWithTheSessionDecidedForIt(t *testing.T) {
	const path = "/v1/decided"
	accounts := map[string]string{"key-of-account-a": "acct-a", "key-of-account-b": "acct-b"}
	for _, how := range []string{"lapsed", "401"} {
		t.Run(how, func(t *testing.T) {
			var mu sync.Mutex
			logins, asked := 0, []string{}
			var srv *httptest.Server
			srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				env := config.SandboxEnvironment(srv.URL, 1)
				if r.URL.Path == PathAPIKeyLogin {
					var req APIKeyLoginRequest
					if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
						t.Error(err)
					}
					logins++
					w.Header().Add("Set-Cookie", fmt.Sprintf("%s=CK-%d; Max-Age=60", env.Cookie(), logins))
					w.Header().Set(env.AccountHeader(), accounts[req.APIKey])
					fmt.Fprint(w, `{"status":"ok","funding_account_address":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}`)
					return
				}
				ck, _ := r.Cookie(env.Cookie())
				asked = append(asked, ck.Value+" "+r.Header.Get(env.AccountHeader()))
				if how == "401" && len(asked) == 1 {
					w.WriteHeader(http.StatusUnauthorized)
					return
				}
				fmt.Fprint(w, `{}`)
			}))
			defer srv.Close()
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			c := New(config.SandboxEnvironment(srv.URL, 1), Options{Now: func() time.Time { return now }})
			if _, err := c.Login(context.Background(), APIKey("key-of-account-a")); err != nil {
				t.Fatal(err)
			}
			atBuild := 2 // the attempt after the 401's renewal
			if how == "lapsed" {
				now = now.Add(time.Minute) // renewed before the first attempt
				atBuild = 1
			}
			var builds int
			var meanwhile error
			body := loginMeanwhile{c: c, key: "key-of-account-b", atBuild: atBuild, builds: &builds, err: &meanwhile}
			err := c.doAuthed(context.Background(), call{method: http.MethodPost, base: srv.URL, path: path, body: body}, nil)
			if err != nil || meanwhile != nil {
				t.Fatalf("request: %v; login meanwhile: %v", err, meanwhile)
			}
			if s, _ := c.Session(); s.AccountID != "acct-b" {
				t.Fatalf("the login made meanwhile is not the session: %s", s.AccountID)
			}
			// CK-1 the first login, CK-2 its renewal, CK-3 the login meanwhile.
			if last := asked[len(asked)-1]; last != "CK-2 acct-a" {
				t.Fatalf("the request after the renewal went as %q, want the renewed session's %q (asked %q)", last, "CK-2 acct-a", asked)
			}
		})
	}
}
