package builder_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

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
// passing it on), is not refused for good, so the same signed body may be
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
	for s, final := range map[int]bool{400: true, 403: true, 409: true, 408: false, 418: false, 499: false, 500: false, 502: false, 503: false} {
		status = s
		_, _, err := builder.NewOrder(a, w.Env.Domain(), uint32(s), w.Clock.Now()).Authorize(context.Background(), c, nil, key)
		if err == nil || builder.Refused(err) != final || builder.OutcomeUnknown(err) == final {
			t.Errorf("HTTP %d: %v, refused for good %v, outcome unknown %v; want %v", s, err, builder.Refused(err), builder.OutcomeUnknown(err), final)
		}
		if said := builder.Explain(err).Error(); s < 500 && !final && (strings.Contains(said, "refused") || strings.Contains(said, "))")) {
			t.Errorf("HTTP %d said as a refusal, or in nested parentheses: %s", s, said)
		}
	}
}

// TestOutcomeUnknownIsNoneNotProcessed: an authorization that never left
// (no connection made) or was rate limited (429, or the rate limit's code)
// was not taken, so builder authorize does not say it may have been (exit
// 5, check the web UI); no answer, a 5xx or an unnamed 4xx may have been.
func TestOutcomeUnknownIsNoneNotProcessed(t *testing.T) {
	dial := &exchange.TransportError{Op: "dial", Host: "auth.example", Err: errors.New("connection refused")}
	for err, unknown := range map[error]bool{
		&exchange.NotSentError{Err: dial}:                                     false,
		&exchange.APIError{Status: http.StatusTooManyRequests}:                false,
		&exchange.APIError{Status: http.StatusTooManyRequests, Code: 9999}:    false,
		&exchange.APIError{Status: 503, Code: exchange.CodeRateLimited}:       false,
		&exchange.TransportError{Op: "read", Host: "auth.example", Err: dial}: true,
		&exchange.APIError{Status: 502}:                                       true,
		&exchange.APIError{Status: 499}:                                       true,
		&exchange.APIError{Status: 400}:                                       false,
	} {
		if builder.OutcomeUnknown(err) != unknown {
			t.Errorf("%T %v: outcome unknown %v, want %v", err, err, !unknown, unknown)
		}
	}
}
