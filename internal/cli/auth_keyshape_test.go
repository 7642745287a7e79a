package cli

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBadlyShapedKeyVarOneExit: a badly shaped $SVCWALLET_API_KEY is an
// API key refused, unsent: a failed login (5, code login) said the same by
// auth login as by every command that logs in with it. It is no usage
// error of the command line typed: auth login exited 2 for it, the others 5.
func TestBadlyShapedKeyVarOneExit(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	bad := map[string]string{"SVCWALLET_API_KEY": "sk-live 7f3a"}
	const says = "login to environment local failed: the API key in $SVCWALLET_API_KEY holds a space at position 8"
	for _, args := range [][]string{{"auth", "login"}, {"status", "q-none"}, {"deposit"}} {
		r := w.run("", bad, args...)
		if r.code != exitError || !strings.Contains(r.stderr, says) || strings.Contains(r.stderr, "7f3a") {
			t.Errorf("%s: exit %d, want 5 saying %q, the key unshown\n%s", strings.Join(args, " "), r.code, says, r.stderr)
		}
	}
	blank := map[string]string{"SVCWALLET_API_KEY": "   "}
	for _, args := range [][]string{{"auth", "login"}, {"status", "q-none"}, {"deposit"}} {
		if r := w.run("", blank, args...); r.code != exitError {
			t.Errorf("%s with a blank variable: exit %d, want 5\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	if r := w.run("", bad, "auth", "login", "--json"); !strings.Contains(r.stdout+r.stderr, `"code":"login"`) {
		t.Errorf("auth login --json: not the login's code\n%s%s", r.stdout, r.stderr)
	}
}

// TestKeptSessionServesTheKeyWithSpaces: $SVCWALLET_API_KEY is read one way
// everywhere (exchange.GivenAPIKey): auth login keeps the session of the
// key trimmed, and a command given the same variable, spaces around the
// key and all, uses that session instead of logging in anew; one set
// blank is a key given, refused, not the kept session's.
func TestKeptSessionServesTheKeyWithSpaces(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{})
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var logins atomic.Int32
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
		if req.URL.Path == exchange.PathAPIKeyLogin {
			logins.Add(1)
		}
		proxy.ServeHTTP(rw, req)
	}))
	t.Cleanup(front.Close)
	w.point(front.URL)
	spaced := map[string]string{"SVCWALLET_API_KEY": "  " + sandbox.DemoAPIKey + " \n"}
	w.logIn("", spaced)
	if n := logins.Load(); n != 1 {
		t.Fatalf("auth login logged in %d times", n)
	}
	if r := w.run("", spaced, "status", "q-none"); logins.Load() != 1 {
		t.Errorf("status with the variable kept logged in anew (%d logins): exit %d\n%s", logins.Load(), r.code, r.stderr)
	}
	if r := w.run("", map[string]string{"SVCWALLET_API_KEY": " "}, "status", "q-none"); r.code != exitError {
		t.Errorf("status with the variable set blank took the kept session: exit %d, want 5\n%s", r.code, r.stderr)
	}
}
