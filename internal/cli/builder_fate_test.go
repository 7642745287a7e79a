package cli

import (
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBuilderCLISaysEachFate: builder authorize says what became of an
// authorization as builder.Auth.Failed judges it: one that never left
// (the authorization host refuses the connection) and a 429 were not
// taken (exit 1, the 429's wait said), never "so far" nor where to check;
// the unknown outcome is TestBuilderCLIOutcomeUnknown's.
func TestBuilderCLISaysEachFate(t *testing.T) {
	h := sandbox.New(sandbox.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != exchange.PathBuilderAuthorize {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"code":1006,"message":"slow down","status":429}`))
	}))
	t.Cleanup(srv.Close)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close() // nothing listens there: the connection is refused
	for _, c := range []struct {
		name, authURL string
		says          string
	}{
		{"429", srv.URL, "not authorized: The service is limiting requests (HTTP 429) and did not take the authorization: wait 3 s before sending it again"},
		{"never sent", closed, "The authorization was not sent, so nothing was authorized"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &bcliEnv{url: srv.URL, config: filepath.Join(t.TempDir(), "config.toml")}
			writeConfig(t, e.config, false, "local", c.authURL, srv.URL)
			r := bcli(t, demoKeyVars, "", false, authorizeArgs(e)...)
			if r.code != exitFailed || !strings.Contains(r.stderr, c.says) || strings.Contains(r.stderr, "so far") || strings.Contains(r.stderr, "web UI") {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			noConsoleKey(t, r.stdout+r.stderr)
		})
	}
}
