package plain

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBuilderAgainSaysEachFate: plain mode's line and question after a
// signed authorization not accepted follow builder.Auth.Failed: never sent
// and a 429 are "Not authorized", offering the same body (after the 429's
// wait); an unknown outcome is "so far", offering it again with nothing
// signed anew, after the wait when its last answer was a 429; a refusal for good offers nothing. None claims a repeat
// cannot grant twice, which SPEC.md §4.4 does not say.
func TestBuilderAgainSaysEachFate(t *testing.T) {
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	dial := &exchange.TransportError{Op: "dial", Host: "auth.example", Err: errors.New("connection refused")}
	for _, c := range []struct {
		err       error
		earlier   builder.Fate
		head, ask string
	}{
		{&exchange.NotSentError{Err: dial}, 0, "Not authorized", "Send the same signed authorization, which was not sent?"},
		{&exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 2 * time.Second}, 0, "Not authorized", "Send the same signed authorization in 2 s?"},
		{&exchange.APIError{Status: 499}, 0, "Not authorized so far", "Send the same signed authorization again? Nothing is signed anew."},
		{&exchange.APIError{Status: 403, Code: exchange.CodeUnauthorizedSigner}, 0, "Not authorized", ""},
		{&exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 2 * time.Second}, builder.FateUnknown, "Not authorized so far", "Send the same signed authorization again in 2 s? Nothing is signed anew."},
	} {
		head, ask := builderAgain(a.Failed(c.err, c.earlier))
		if head != c.head || ask != c.ask {
			t.Errorf("%v: %q, %q; want %q, %q", c.err, head, ask, c.head, c.ask)
		}
		if strings.Contains(ask, "twice") {
			t.Errorf("%v: %q", c.err, ask)
		}
	}
}

// TestBuilderAgainAfterEachAnswer: through a gateway in front of the
// sandbox, an authorization answered 429 is "Not authorized", offered
// again in the 3 s asked, and the last words say it was sent and not
// taken; sent again, it leaves only once those 3 s passed on the
// session's clock, the wait said as it starts; answered 499 then, and
// 429 after, it stays "so far"
// (the 499's may have been taken) and the last words say the 499, not
// the 429 after it.
func TestBuilderAgainAfterEachAnswer(t *testing.T) {
	var answers []int // the gateway's statuses for the authorizations, in turn
	var at []time.Time
	var r *rig
	r, _ = newGatewayRig(t, func(w http.ResponseWriter, req *http.Request) bool {
		if len(answers) == 0 {
			return false
		}
		at = append(at, r.clock.Now())
		status := answers[0]
		answers = answers[1:]
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(status)
		w.Write([]byte(`{"message":"from the gateway"}`))
		return true
	})
	authorize := typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "y")
	answers = []int{http.StatusTooManyRequests}
	out, err := r.run(steps(logIn, authorize, typed("Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Not authorized: The service is limiting requests (HTTP 429) and did not take the authorization: wait 3 s before sending it again.",
		"Send the same signed authorization in 3 s?", "sent a builder authorization of "+sandbox.BuilderAddress+" (not taken)")
	answers, at = []int{http.StatusTooManyRequests, 499, http.StatusTooManyRequests}, nil
	out, err = r.run(steps(logIn, authorize, typed("Send it again", "Send it again", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "type the name: Waiting 3 s, as the service asked, before sending it again…\nNot authorized so far: The service answered the authorization with HTTP 499",
		"Not authorized so far: An earlier attempt may have been taken, and this one was not", "Send the same signed authorization again in 3 s? Nothing is signed anew.",
		"sent a builder authorization of "+sandbox.BuilderAddress+" (HTTP 499, which does not say whether it was taken)")
	if strings.Contains(out, "cannot grant twice") {
		t.Errorf("a repeat is said not to grant twice:\n%s", out)
	}
	if len(at) != 3 || at[1].Sub(at[0]) < 3*time.Second {
		t.Fatalf("authorizations reached the gateway at %v: want 3, the second 3 s after the first's 429", at)
	}
}

// TestLastWordsSayWhatCame: the last words name what left an
// authorization's outcome unknown (builder.Failure.Answer), each in its
// own short words: no answer, a server error, an unnamed 4xx, a proxy's
// page over 200; never "no answer" for an answer.
func TestLastWordsSayWhatCame(t *testing.T) {
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	dial := &exchange.TransportError{Op: "dial", Host: "auth.example", Err: errors.New("connection refused")}
	for err, want := range map[error]string{
		&exchange.TransportError{Op: "read", Host: "auth.example", Err: dial}: "no answer",
		&exchange.APIError{Status: 503}:                                       "a server error, HTTP 503: may have been taken",
		&exchange.APIError{Status: 499}:                                       "HTTP 499, which does not say whether it was taken",
		&exchange.UnreadableAnswerError{Status: 200}:                          "HTTP 200 with a body not the service's answer: may have been taken",
	} {
		if got := unknownWords(a.Failed(err, 0)); got != want {
			t.Errorf("%v: %q, want %q", err, got, want)
		}
	}
}

// TestBuilderTakenUnreadable: an authorization accepted with an answer
// that cannot be read is said as authorized, with where to check and
// revoke it; nothing is offered again, and the last words name it sent
// and taken.
func TestBuilderTakenUnreadable(t *testing.T) {
	r, _ := newGatewayRig(t, func(w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Content-Type", "application/json")
		// The service's answer with a key it cannot have made.
		w.Write([]byte(`{"api_key": "not a token"}`))
		return true
	})
	out, err := r.run(steps(logIn, typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "y"), typed("quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Authorized, answer unreadable: The service accepted the authorization, so "+sandbox.BuilderAddress+" is authorized",
		"revoke it there", "sent a builder authorization of "+sandbox.BuilderAddress+" (taken, its answer unreadable)")
	if strings.Contains(out, "Send the same signed authorization") {
		t.Errorf("a taken authorization is offered again:\n%s", out)
	}
}

// TestGoodbyeSaysAnAuthorizationNeverSent: a builder authorization signed
// whose request never left on any attempt (the service unreachable) is
// named in the last words as signed and not sent: they said nothing else
// was signed.
func TestGoodbyeSaysAnAuthorizationNeverSent(t *testing.T) {
	r, gw := newGatewayRig(t, func(http.ResponseWriter, *http.Request) bool { return false })
	// No connection is kept for another request: one kept from the login,
	// its close not yet seen by the client (a loaded machine), took the
	// authorization and was reset, which may have sent it (CI, once).
	gw.Config.SetKeepAlivesEnabled(false)
	// Once logged in, nothing listens: every authorization fails before it leaves.
	gone := scripted{text: "y", before: func() { gw.Listener.Close(); gw.CloseClientConnections() }}
	out, err := r.run(steps(logIn, typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no"), []scripted{gone}, typed("Send it again", "Back home", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "The authorization was not sent, so nothing was authorized",
		"Goodbye: a builder authorization of "+sandbox.BuilderAddress+" was signed and not sent; nothing else was signed or sent.\n")
}

// TestInterruptedWaitSaysTheAuthorizationSent: interrupted while waiting
// out a 429 before sending the same body again, the last words still name
// the authorization sent and not taken.
func TestInterruptedWaitSaysTheAuthorizationSent(t *testing.T) {
	r, _ := newGatewayRig(t, func(w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"message":"from the gateway"}`))
		return true
	})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	r.console.After = func(time.Duration) <-chan time.Time { stop(); return nil } // ctrl+c as the wait begins
	lines := steps(logIn, typed("builder", sandbox.BuilderAddress, "0.1", "0.05", "7d", "no", "y", "Send it again"))
	out := newTranscript()
	err := r.console.Run(ctx, &script{lines: lines, out: out}, out, nil)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("ended with %v", err)
	}
	wants(t, out.String(), "sent a builder authorization of "+sandbox.BuilderAddress+" (not taken)")
}

// newGatewayRig is a rig whose environment's auth host is a gateway in
// front of the sandbox: each builder authorization goes to authorize, which
// answers it itself (true) or passes it on (false); every other request
// passes on. The gateway is returned for a test to close.
func newGatewayRig(t *testing.T, authorize func(w http.ResponseWriter, req *http.Request) bool) (*rig, *httptest.Server) {
	var gw *httptest.Server
	r := newRigOn(t, func(sbx string) config.Environment {
		up, _ := url.Parse(sbx)
		proxy := httputil.NewSingleHostReverseProxy(up)
		gw = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.URL.Path != exchange.PathBuilderAuthorize || !authorize(w, req) {
				proxy.ServeHTTP(w, req)
			}
		}))
		t.Cleanup(gw.Close)
		env := config.SandboxEnvironment(sbx, sandbox.DefaultChainID)
		env.AuthURL = gw.URL
		return env
	})
	return r, gw
}
