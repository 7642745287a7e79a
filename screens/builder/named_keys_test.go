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
// its showing again starts is on and once it is over, at the console's
// three sizes: every key a message says to press acts then, by the rule
// the footer's keys are held to (a key hint is a promise). esc is the
// root's, and held with the rest.
func TestBuilderReviewNamesOnlyKeysThatAct(t *testing.T) {
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{120, 36}, {80, 20}, {60, 16}} {
		for _, code := range []exchange.Code{exchange.CodeDuplicateSignature, exchange.CodeExpirationTooFar} {
			r := newBldRig(t, 120, 40)
			rv := newBuilderReview(r.App, a, bldNonce)
			rv.SetSize(size[0], size[1])
			rv.Init()
			rv.Update(rv.gate.Key.Find()())
			r.clock.Advance(kit.ShownGuard)
			screentest.Press(rv, "enter")
			rv.Update(builderSentMsg{err: &exchange.APIError{Status: code.Status(), Code: code}})
			for _, when := range []string{"held", "acting"} {
				where := fmt.Sprintf("%dx%d, refused %d, keys %s", size[0], size[1], code, when)
				if rv.gate.Guarded() != (when == "held") {
					t.Fatalf("%s: guarded %v", where, rv.gate.Guarded())
				}
				screentest.RequireNamedKeysAct(t, where, rv.View(), func(k string) bool {
					return screentest.Offers(rv.KeyMap(), k) || k == "esc" && rv.gate.Acts(true)
				})
				r.clock.Advance(kit.ShownGuard)
			}
		}
	}
}
