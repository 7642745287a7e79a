package builder

import (
	"fmt"
	"testing"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBuilderReviewNamesOnlyKeysThatAct walks the review's refusals whose
// step names esc (a nonce used, a validity too long), each while the hold
// its showing again starts is on and once it is over, in the console at
// its three sizes: every key a message says to press is one the footer
// offers then (a key hint is a promise). esc is the root's, and the root
// holds it with the review's keys (tui.Holding).
func TestBuilderReviewNamesOnlyKeysThatAct(t *testing.T) {
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
		for _, code := range []exchange.Code{exchange.CodeDuplicateSignature, exchange.CodeExpirationTooFar} {
			r := newBldRig(t, size[0], size[1])
			rv := newBuilderReview(r.App, a, bldNonce)
			r.Open(rv)
			r.UntilShows("the sandbox demo key") // found: the hold counts from it
			r.clock.Advance(kit.ShownGuard)
			r.Send(builderSentMsg{err: &exchange.APIError{Status: code.Status(), Code: code}})
			for _, when := range []string{"held", "acting"} {
				where := fmt.Sprintf("%dx%d, refused %d, keys %s", size[0], size[1], code, when)
				if rv.gate.Guarded() != (when == "held") {
					t.Fatalf("%s: guarded %v", where, rv.gate.Guarded())
				}
				frame := r.Plain()
				screentest.RequireNamedKeysAct(t, where, frame, func(k string) bool { return screentest.FooterOffers(frame, k) })
				r.clock.Advance(kit.ShownGuard)
			}
			if names := screentest.NamedKeys(r.Plain()); len(names) == 0 {
				t.Fatalf("%dx%d, refused %d: the refusal names no key once keys act:\n%s", size[0], size[1], code, r.Plain())
			}
		}
	}
}
