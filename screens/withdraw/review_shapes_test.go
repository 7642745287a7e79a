package withdraw

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestEveryReviewShapeFits60x20 (seen in tmux): signed by the sandbox's
// demo key, a converting payout's review, a mostly-fee one asking its
// second question, one to a changed bridge address, one under the
// journal's note of an identical withdrawal made a moment ago, or of one
// that ended FAILED, and a mostly-fee one under either note can each be
// answered at 60x20 and 80x24,
// with what is signed, the environment and the bridge's trust note whole.
// The note repeated the amount, destination and chain the review shows
// (four lines at 60 columns), the replaced bridge address broke in two
// under its indent, and the demo key and the countdown took a line each:
// "Too small to review: the review needs 21 rows". Golden files.
func TestEveryReviewShapeFits60x20(t *testing.T) {
	const replaced = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"
	for _, tc := range []struct {
		name                     string
		usdc, loss, moved, again bool
		failed                   bool // the earlier one ended FAILED
		wants                    []string
	}{
		{"converting", true, false, false, false, false, []string{"the bridge converts USDT to USDC", "pinned"}},
		{"mostly_fee", false, true, false, false, false, []string{"93.8%", "Withdraw all the same? (y/n)", "pinned"}},
		{"changed_bridge", false, false, true, false, false, []string{"replaces 0x90F7…b906, accepted as announced"}},
		{"earlier", false, false, false, true, false, []string{"identical to q-earlier, made", "still SENDING: this one pays again.", "pinned"}},
		{"mostly_fee_earlier", false, true, false, true, false, []string{"93.8%", "identical to q-earlier", "this one pays again.", "Withdraw all the same? (y/n)"}},
		{"failed_earlier", false, false, false, true, true, []string{"identical q-earlier7h2kqzmauggyqejruzv FAILED 24h ago, debited until support returns it: this one pays again.", "pinned"}},
		{"mostly_fee_failed_earlier", false, true, false, true, true, []string{"93.8%", "identical q-earlier7h2kqzmauggyqejruzv FAILED 24h ago", "until support returns it: this one pays again.", "Withdraw all the same? (y/n)"}},
	} {
		for _, size := range [][2]int{{60, 18}, {80, 22}} { // the screen's part of the terminal
			t.Run(fmt.Sprintf("%s/%dx%d", tc.name, size[0], size[1]+2), func(t *testing.T) {
				app, now := screentest.LoggedInApp(t)
				app.Nonce = func() uint32 { return 470543406 }
				w := sandboxChoice(t, app)
				q := fixedQuote(*now, "1.5")
				q.QuoteID = "q-26m5qdxzmauggyqejruzvyz7pr"
				if tc.usdc {
					w.TokenOut, q.ReceiveAmount = exchange.TokenUSDC, decimal.RequireFromString("23.5047")
				}
				if tc.loss {
					w.Amount, q.PayAmount, q.ReceiveAmount = decimal.RequireFromString("1.6"), decimal.RequireFromString("1.6"), decimal.RequireFromString("0.1")
				}
				*now = now.Add(-kit.ShownGuard) // shown a guard early: 60 s left once it is waited out
				r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
				r.SetSize(size[0], size[1])
				r.Init()
				r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
				checked := r.checkBridge()().(bridgeCheckedMsg)
				if tc.moved {
					checked.trust.Pinned, checked.trust.Replaces = false, replaced
				}
				if tc.again {
					earlier := journal.Record{QuoteID: "q-earlier", Made: true, Answered: true, State: exchange.StateSending, Started: now.Add(-18 * time.Second),
						Intent: journal.Intent{ToAddress: w.ToAddress, Chain: w.Route.Chain, TokenIn: w.TokenIn, TokenOut: w.TokenOut, PayAmount: w.Amount}}
					if tc.failed {
						// A quote id as long as the sandbox's, made the longest ago
						// the note is said (FailedRepeat).
						earlier.QuoteID, earlier.State, earlier.Started = "q-earlier7h2kqzmauggyqejruzv", exchange.StateFailed, now.Add(-23*time.Hour-59*time.Minute)
					}
					if checked.repeat = withdrawal.FindRepeat([]journal.Record{earlier}, w, *now); checked.repeat.Recent == nil && checked.repeat.Failed == nil {
						t.Fatal("the earlier withdrawal is not found")
					}
				}
				r.Update(checked)
				*now = now.Add(kit.ShownGuard)
				answer := "enter"
				if tc.loss {
					screentest.Press(r, "enter")
					*now = now.Add(kit.ShownGuard)
					answer = "y"
				}
				view := r.View()
				lines := strings.Split(view, "\n")
				if _, fits := r.fitted(); !fits || len(lines) > size[1] || !screentest.Offers(r.KeyMap(), answer) {
					t.Fatalf("%d lines, %s offered %v:\n%s", len(lines), answer, screentest.Offers(r.KeyMap(), answer), ansi.Strip(view))
				}
				for i, l := range lines {
					if n := ansi.StringWidth(l); n > size[0] {
						t.Errorf("line %d is %d cells: %q", i+1, n, ansi.Strip(l))
					}
				}
				digest := signer.Digest(r.order.Domain, r.order.Transfer).Hex()
				for _, want := range append([]string{digest, sandbox.BridgeFundingAddress, sandbox.DestCompleted, sandbox.DemoAddress, "sandbox-bridge",
					"Environment sandbox", "chainId 327", "Bridge fee 1.5 USDT", "expires in", "demo key (public"}, tc.wants...) {
					if !strings.Contains(squash(view), squash(want)) {
						t.Errorf("lacks %q whole:\n%s", want, ansi.Strip(view))
					}
				}
				golden.RequireEqual(t, []byte(ansi.Strip(view)))
			})
		}
	}
}
