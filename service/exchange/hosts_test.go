package exchange_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestSessionGoesOnlyToTheBaseHost: with the three hosts of SPEC.md apart
// (the sandbox behind three loopback listeners), the session cookie and
// the account-id header go to the base_url endpoints alone (§5): never to
// market_data_url's /time, nor to auth_url's logins and builder
// authorization, which a signature or an API key authenticates.
func TestSessionGoesOnlyToTheBaseHost(t *testing.T) {
	w := newWorld(t, sandbox.Options{})
	type seen struct{ path, cookie, account string }
	var mu sync.Mutex
	got := map[string][]seen{}
	host := func(name string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
			ck, _ := req.Cookie(config.SessionCookie)
			s := seen{path: req.URL.Path, account: req.Header.Get(config.HeaderAccountID)}
			if ck != nil {
				s.cookie = ck.Value
			}
			mu.Lock()
			got[name] = append(got[name], s)
			mu.Unlock()
			w.Ex.ServeHTTP(rw, req)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	env := w.Env
	env.AuthURL, env.BaseURL, env.MarketDataURL = host("auth"), host("base"), host("market data")
	c := exchange.New(env, exchange.Options{Now: w.Clock.Now})
	key := mustKey(t, sandbox.DemoPrivateKey)
	if _, err := c.Login(ctx, exchange.Wallet(key)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ServerTime(ctx); err != nil {
		t.Fatal(err)
	}
	q, err := c.Quote(ctx, exchange.QuoteRequest{ToAddress: sandbox.DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT", Amount: "10"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WithdrawalStatus(ctx, q.QuoteID); err != nil { // a CREATED record asks /time too
		t.Fatal(err)
	}
	if _, err := c.AuthorizeBuilder(ctx, w.builderRequest(key, [20]byte{}, "", 7, w.Clock.Now().Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil { // logged in already
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for name, reqs := range got {
		for _, s := range reqs {
			if carries := s.cookie != "" || s.account != ""; carries != (name == "base") {
				t.Errorf("%s host %s: cookie %q, account id %q", name, s.path, s.cookie, s.account)
			}
		}
	}
	if len(got["market data"]) < 2 || len(got["auth"]) != 3 || len(got["base"]) != 2 {
		t.Fatalf("requests per host %v: the flow did not go as planned", got)
	}
}
