package plain

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBuilderAgainSaysEachFate: plain mode's line and question after a
// signed authorization not accepted follow builder.Auth.Failed: never sent
// and a 429 are "Not authorized", offering the same body (after the 429's
// wait); an unknown outcome is "so far", offering it again with nothing
// signed anew; a refusal for good offers nothing. None claims a repeat
// cannot grant twice, which SPEC.md §4.4 does not say.
func TestBuilderAgainSaysEachFate(t *testing.T) {
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	dial := &exchange.TransportError{Op: "dial", Host: "auth.example", Err: errors.New("connection refused")}
	for _, c := range []struct {
		err       error
		head, ask string
	}{
		{&exchange.NotSentError{Err: dial}, "Not authorized", "Send the same signed authorization, which was not sent?"},
		{&exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 2 * time.Second}, "Not authorized", "Send the same signed authorization in 2 s?"},
		{&exchange.APIError{Status: 499}, "Not authorized so far", "Send the same signed authorization again? Nothing is signed anew."},
		{&exchange.APIError{Status: 403, Code: exchange.CodeUnauthorizedSigner}, "Not authorized", ""},
	} {
		head, ask := builderAgain(a.Failed(c.err, 0))
		if head != c.head || ask != c.ask {
			t.Errorf("%v: %q, %q; want %q, %q", c.err, head, ask, c.head, c.ask)
		}
		if strings.Contains(ask, "twice") {
			t.Errorf("%v: %q", c.err, ask)
		}
	}
}
