package builder

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestBuilderReviewFitIsAFreshDrawing: along a random walk of what reaches
// the review (keys, answers, a 429 and its timers, sizes, the clock moving
// without a message), the view and footer drawn from the kept fit are the
// ones a fresh drawing gives: no change the fit misses.
func TestBuilderReviewFitIsAFreshDrawing(t *testing.T) {
	r := newKeystoreRig(t, 60, 20, "keystore")
	r.App.Target.Env.Name = "local"
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		Label: "market maker bot for the overnight futures book, run from the colo", KeySigner: sandbox.NoChainAddress, Permissions: "trade"})
	if err != nil {
		t.Fatal(err)
	}
	var rv *builderReviewScreen
	fresh := func() string {
		rv = newBuilderReview(r.App, a, bldNonce)
		rv.SetSize(120, 36)
		rv.Init()
		rv.Update(rv.gate.Key.Find()())
		return "a new review"
	}
	fresh()
	signed := exchange.BuilderAuthorizeRequest{Signature: exchange.Signature{R: "0x01", S: "0x02"}}
	sizes := [][2]int{{120, 36}, {120, 36}, {80, 20}, {60, 18}, {60, 12}}
	// The clock moves without a message: only the drawing sees it.
	clock := func(rng *rand.Rand) string {
		d := []time.Duration{100 * time.Millisecond, kit.KeyGuard, time.Second, kit.ShownGuard}[rng.IntN(4)]
		r.clock.Advance(d)
		return fmt.Sprint("clock +", d)
	}
	steps := []func(rng *rand.Rand) string{
		func(*rand.Rand) string { rv.Update(rv.gate.Key.Find()()); return "the key found" },
		func(rng *rand.Rand) string {
			k := []string{"a", "backspace", "enter", "enter", "esc", "o"}[rng.IntN(6)]
			rv.Update(screentest.Key(k))
			return "key " + k
		},
		clock, clock, clock,
		func(rng *rand.Rand) string {
			s := sizes[rng.IntN(len(sizes))]
			rv.SetSize(s[0], s[1])
			return fmt.Sprint("size ", s)
		},
		func(rng *rand.Rand) string {
			w := time.Duration(1+rng.IntN(5)) * time.Second
			rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: w}})
			return fmt.Sprint("429 for ", w)
		},
		func(*rand.Rand) string {
			rv.Update(builderSentMsg{err: kit.KeyNotOpened(signer.ErrWrongPassphrase)})
			return "wrong passphrase"
		},
		func(*rand.Rand) string {
			rv.Update(builderSentMsg{req: signed, err: errors.New("connection reset")})
			return "no answer"
		},
		func(*rand.Rand) string { rv.Update(builderResendMsg{tag: rv.waitTag}); return "the wait's timer" },
		func(*rand.Rand) string { rv.Update(tui.ShownAgainMsg{}); return "shown again" },
		func(*rand.Rand) string { return fresh() },
		func(*rand.Rand) string {
			rv.Update(builderSentMsg{req: signed, err: &exchange.APIError{Status: http.StatusTooManyRequests, RetryAfter: 6 * time.Second}})
			r.clock.Advance(kit.ShownGuard)
			screentest.Press(rv, "enter")
			return "a 429, read, then enter: the wait"
		},
	}
	rng := rand.New(rand.NewPCG(52, 2))
	var walked []string
	for range 300 {
		walked = append(walked, steps[rng.IntN(len(steps))](rng))
		got, keys := rv.View(), fmt.Sprint(rv.KeyMap().ShortHelp())
		rv.fit = fit{}
		if want, wantKeys := rv.View(), fmt.Sprint(rv.KeyMap().ShortHelp()); got != want || keys != wantKeys {
			t.Fatalf("after %v\nthe kept fit drew:\n%s\n%s\na fresh drawing:\n%s\n%s", walked[max(len(walked)-8, 0):], ansi.Strip(got), keys, ansi.Strip(want), wantKeys)
		}
	}
}
