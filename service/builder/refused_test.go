package builder_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestServerErrorIsNoRefusal: an authorization answered with a server
// error (500 and up: the service or a gateway failed, and may yet have
// recorded it), or with a 4xx the interface gives no meaning and no code
// svcwallet knows (exchange.UnnamedRefusal: a gateway's 408 or 499 after
// passing it on, a 303 See Other), is not refused for good, so the same signed body may be
// sent again, and is not said as refused; a 4xx the interface names is
// final.
func TestServerErrorIsNoRefusal(t *testing.T) {
	status := http.StatusInternalServerError
	w := loopback.NewWorldBehind(t, sandbox.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
			if req.URL.Path == exchange.PathBuilderAuthorize && status != 0 {
				rw.Header().Set("Content-Type", "application/json")
				rw.WriteHeader(status)
				rw.Write([]byte(`{"code":9999,"message":"failed","status":0}`))
				return
			}
			next.ServeHTTP(rw, req)
		})
	})
	c := w.Client(exchange.Options{})
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	key := func() (signer.Key, error) { return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	for s, final := range map[int]bool{400: true, 403: true, 409: true, 303: false, 307: false, 408: false, 418: false, 499: false, 500: false, 502: false, 503: false} {
		status = s
		_, _, err := builder.NewOrder(a, w.Env.Domain(), uint32(s), w.Clock.Now()).Authorize(context.Background(), c, nil, key)
		want := map[bool]builder.Fate{true: builder.FateRefused, false: builder.FateUnknown}[final]
		if err == nil || a.Failed(err, 0).Fate != want {
			t.Errorf("HTTP %d: %v, fate %d; want %d", s, err, a.Failed(err, 0).Fate, want)
		}
		if said := builder.Explain(err).Error(); s < 500 && !final && (strings.Contains(said, "refused") || strings.Contains(said, "))")) {
			t.Errorf("HTTP %d said as a refusal, or in nested parentheses: %s", s, said)
		}
	}
}

// TestFateOfEachError: the one rule of what became of a signed
// authorization not accepted, and its words, for every face: one that
// never left was not sent and authorized nothing; a 429 (or the rate
// limit's code) was not taken, and says the wait it asked; no answer, a
// 5xx or an unnamed 4xx may have been taken, and says where to check; a
// named 4xx is refused for good. After an attempt whose outcome is
// unknown, a later one never left or rate limited proves nothing. An
// acceptance in the answer's form whose field cannot be used was taken:
// the builder is authorized, and the words say to look and revoke, not to
// send again; a 200 not in the answer's form (a proxy's page) says nothing
// of whether it was taken.
func TestFateOfEachError(t *testing.T) {
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	dial := &exchange.TransportError{Op: "dial", Host: "auth.example", Err: errors.New("connection refused")}
	limited := &exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 3 * time.Second}
	badKey := &exchange.UnreadableAnswerError{Status: 200, Reason: exchange.NewShapeError("builder API key", "holds a space")}
	for _, c := range []struct {
		name    string
		err     error
		earlier builder.Fate
		fate    builder.Fate
		says    []string
	}{
		{"never left", &exchange.NotSentError{Err: dial}, 0, builder.FateNotSent, []string{"Cannot reach auth.example", "was not sent, so nothing was authorized"}},
		{"429 asking 3 s", limited, 0, builder.FateLimited, []string{"did not take the authorization: wait 3 s before sending it again"}},
		{"429 of a code of its own", &exchange.APIError{Status: http.StatusTooManyRequests, Code: 9999}, 0, builder.FateLimited, []string{"did not take", "wait 1 s"}},
		{"the rate limit's code", &exchange.APIError{Status: 503, Code: exchange.CodeRateLimited}, 0, builder.FateLimited, []string{"did not take"}},
		{"no answer", &exchange.TransportError{Op: "read", Host: "auth.example", Err: dial}, 0, builder.FateUnknown, []string{"offers no way to ask whether a builder is authorized"}},
		{"502", &exchange.APIError{Status: 502}, 0, builder.FateUnknown, []string{"HTTP 502", "before authorizing again"}},
		{"499", &exchange.APIError{Status: 499}, 0, builder.FateUnknown, []string{"HTTP 499, a status that does not say whether it was taken", "before authorizing again"}},
		{"400", &exchange.APIError{Status: 400}, 0, builder.FateRefused, []string{"The service refused"}},
		{"a duplicate nonce", &exchange.APIError{Status: 400, Code: exchange.CodeDuplicateSignature}, 0, builder.FateRefused, []string{"nonce was already used"}},
		// The body that got no answer used its nonce: it went through.
		{"a duplicate nonce after no answer", &exchange.APIError{Status: 400, Code: exchange.CodeDuplicateSignature}, builder.FateUnknown, builder.FateTaken, []string{"the attempt that got no answer went through, so " + sandbox.BuilderAddress + " is authorized", "web UI"}},
		{"never left after no answer", &exchange.NotSentError{Err: dial}, builder.FateUnknown, builder.FateUnknown, []string{"An earlier attempt may have been taken, and this one: Cannot reach", "before authorizing again"}},
		{"429 after no answer", limited, builder.FateUnknown, builder.FateUnknown, []string{"An earlier attempt may have been taken, and this one was not", "wait 3 s before sending it again", "before authorizing again"}},
		{"429 after a 429", limited, builder.FateLimited, builder.FateLimited, []string{"wait 3 s"}},
		{"an acceptance that cannot be read", badKey, 0, builder.FateTaken, []string{"accepted the authorization, so " + sandbox.BuilderAddress + " is authorized", "builder API key that holds a space", "revoke it there"}},
		{"an acceptance that cannot be read after no answer", badKey, builder.FateUnknown, builder.FateTaken, []string{"accepted the authorization"}},
		{"a 200 not in the answer's form", &exchange.UnreadableAnswerError{Status: 200}, 0, builder.FateUnknown, []string{"HTTP 200 with a body that is not the service's answer", "does not say whether it was taken", "before authorizing again"}},
		{"interrupted once sent", &exchange.TransportError{Op: "read", Host: "auth.example", Err: context.Canceled}, 0, builder.FateUnknown, []string{"before authorizing again"}},
	} {
		f := a.Failed(c.err, c.earlier)
		if f.Fate != c.fate {
			t.Errorf("%s: fate %d, want %d", c.name, f.Fate, c.fate)
		}
		for _, w := range c.says {
			if !strings.Contains(f.Error(), w) {
				t.Errorf("%s: said %q, want %q in it", c.name, f.Error(), w)
			}
		}
		if said := f.Error(); c.fate != builder.FateRefused && strings.Contains(said, "service refused") || c.fate != builder.FateUnknown && strings.Contains(said, "before authorizing again") {
			t.Errorf("%s: said as another fate: %s", c.name, said)
		}
		ae, _ := c.err.(*exchange.APIError)
		if limited := ae != nil && (ae.Status == http.StatusTooManyRequests || ae.Code == exchange.CodeRateLimited); limited != (f.Wait > 0) {
			t.Errorf("%s: wait %v", c.name, f.Wait)
		}
		if !errors.Is(f, c.err) {
			t.Errorf("%s: the cause is lost", c.name)
		}
	}
}

// TestTakenWithKeyNamesTheKey: an authorization with an API key accepted
// whose answer cannot be read says the builder may hold a key the user
// never saw, by its label, and where to revoke it, never "try again".
func TestTakenWithKeyNamesTheKey(t *testing.T) {
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		Label: "bot", KeySigner: sandbox.NoChainAddress, Permissions: "Trade"})
	if err != nil {
		t.Fatal(err)
	}
	f := a.Failed(&exchange.UnreadableAnswerError{Status: 200, Reason: exchange.NewShapeError("builder API key", "holds a space")}, 0)
	if strings.Contains(f.Error(), "try again") {
		t.Errorf("a taken authorization is offered again: %s", f.Error())
	}
	for _, w := range []string{"may now hold an API key you never saw", `labelled "bot"`, "revoke it there", "builder API key that holds a space"} {
		if f.Fate != builder.FateTaken || !strings.Contains(f.Error(), w) {
			t.Errorf("fate %d, said %q, want %q in it", f.Fate, f.Error(), w)
		}
	}
}

// TestSuccessStatusNotInItsFormIsNoAcceptance: a 200 over an error's body
// or a proxy's HTML page, through the client, is not said as authorized
// nor as taken: it may have been taken, and the words say where to check.
func TestSuccessStatusNotInItsFormIsNoAcceptance(t *testing.T) {
	body := ""
	w := loopback.NewWorldBehind(t, sandbox.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
			if req.URL.Path == exchange.PathBuilderAuthorize {
				rw.Write([]byte(body))
				return
			}
			next.ServeHTTP(rw, req)
		})
	})
	c := w.Client(exchange.Options{})
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		Label: "bot", KeySigner: sandbox.NoChainAddress, Permissions: "Trade"})
	if err != nil {
		t.Fatal(err)
	}
	key := func() (signer.Key, error) { return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	for b, says := range map[string]string{
		`{"code":2002,"message":"signature does not match payload","status":403}`: "HTTP 200 with an error's body (code 2002)",
		`<html><body>Welcome to the hotel Wi-Fi</body></html>`:                    "HTTP 200 with a body that is not the service's answer",
	} {
		body = b
		_, _, err := builder.NewOrder(a, w.Env.Domain(), 7, w.Clock.Now()).Authorize(context.Background(), c, nil, key)
		if err == nil {
			t.Errorf("%s: said as authorized", b)
			continue
		}
		f := a.Failed(err, 0)
		if f.Fate != builder.FateUnknown || !strings.Contains(f.Error(), says) || !strings.Contains(f.Error(), `labelled "bot"`) {
			t.Errorf("%s: fate %d, said %q; want unknown, %q and where to check", b, f.Fate, f.Error(), says)
		}
	}
}

// TestUnknownSaysWhatCame: an outcome left unknown by its own answer says
// which (builder.Answer) and its status, for the faces' short words: none
// came, a 5xx, an unnamed 4xx, a 200 not the service's answer; an attempt
// that proves nothing after no answer (never left, a 429) says none, so
// the earlier's stands; a nonce already used after no answer says the
// earlier attempt took it, and an acceptance unreadable does not.
func TestUnknownSaysWhatCame(t *testing.T) {
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	dial := &exchange.TransportError{Op: "dial", Host: "auth.example", Err: errors.New("connection refused")}
	for _, c := range []struct {
		name    string
		err     error
		earlier builder.Fate
		answer  builder.Answer
		status  int
		earlyTk bool
	}{
		{"no answer", &exchange.TransportError{Op: "read", Host: "auth.example", Err: dial}, 0, builder.AnswerNone, 0, false},
		{"503", &exchange.APIError{Status: 503}, 0, builder.AnswerServerError, 503, false},
		{"499", &exchange.APIError{Status: 499}, 0, builder.AnswerUnnamed, 499, false},
		{"a proxy's page", &exchange.UnreadableAnswerError{Status: 200}, 0, builder.AnswerUnreadable, 200, false},
		{"429 after no answer", &exchange.APIError{Status: http.StatusTooManyRequests}, builder.FateUnknown, 0, 0, false},
		{"never left after no answer", &exchange.NotSentError{Err: dial}, builder.FateUnknown, 0, 0, false},
		{"a 503 after no answer", &exchange.APIError{Status: 503}, builder.FateUnknown, builder.AnswerServerError, 503, false},
		{"refused", &exchange.APIError{Status: 400}, 0, 0, 0, false},
		{"a duplicate nonce after no answer", &exchange.APIError{Status: 400, Code: exchange.CodeDuplicateSignature}, builder.FateUnknown, 0, 0, true},
		{"an acceptance that cannot be read", &exchange.UnreadableAnswerError{Status: 200, Reason: exchange.NewShapeError("builder API key", "holds a space")}, 0, 0, 0, false},
	} {
		f := a.Failed(c.err, c.earlier)
		if f.Answer != c.answer || f.Status != c.status || f.TakenEarlier != c.earlyTk {
			t.Errorf("%s: answer %d, status %d, taken earlier %v; want %d, %d, %v", c.name, f.Answer, f.Status, f.TakenEarlier, c.answer, c.status, c.earlyTk)
		}
	}
}
