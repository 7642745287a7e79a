package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBuilderSubmitNotTakenSaysPrepareAgain: a submitted file answered 429
// was not taken, but it is recorded as sent and never submitted twice: the
// words say to prepare it again, not only to wait and send it again, which
// the next submit refuses.
func TestBuilderSubmitNotTakenSaysPrepareAgain(t *testing.T) {
	r := newBoRig(t)
	out := r.prepare(t)
	sig := signFile(t, out, sandbox.DemoPrivateKey)
	limited := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"code":1006,"message":"slow down","status":429}`))
	}))
	t.Cleanup(limited.Close)
	writeConfig(t, r.config, false, "local", limited.URL, r.url)
	r.run("", "submit", out, "--signature", sig).want(t, exitFailed, "did not take the authorization: wait 3 s before sending it again",
		"this file is not submitted twice: prepare it again (svcwallet builder authorize --signer offline --env local --config "+r.config+") and submit the new one")
	if res := r.run("", "submit", out, "--signature", sig); !strings.Contains(res.stderr, "submitted already") {
		t.Fatalf("the file submitted again: exit %d %s", res.code, res.stderr)
	}
}
