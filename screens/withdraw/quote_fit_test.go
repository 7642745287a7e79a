package withdraw

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestQuoteFitsTheSmallestTerminal (found by review, then in tmux): at
// 60x20 a quote with a fee cap and a severe loss, the first one or a fresh
// one, keeps its countdown and what enter does on screen (the root cuts
// what passes the bottom) by leaving out the facts' notes and details;
// what is paid, received and lost stays.
func TestQuoteFitsTheSmallestTerminal(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	capped := decimal.NewNullDecimal(decimal.RequireFromString("30"))
	small := fixedQuote(*now, "1.5")
	small.PayAmount, small.ReceiveAmount = decimal.RequireFromString("2"), decimal.RequireFromString("0.5")
	small.QuoteID = "q-3v444sfak57xkma75uhmftv7pa" // as long as the sandbox's: its expiry wraps
	severe := fixedQuote(*now, "20")
	severe.ReceiveAmount = decimal.RequireFromString("5")
	was := fixedQuote(*now, "19")
	for _, tc := range []struct {
		name   string
		amount string
		quote  exchange.Quote
		was    *exchange.Quote
		wants  []string
	}{
		{"the first quote, one line too many", "2", small, nil, nil},
		{"a fresh quote, marked", "25", severe, &was, []string{"◆ was"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted,
				Amount: decimal.RequireFromString(tc.amount), FeeCap: capped}
			q := pricedQuoteScreen(app, w, tc.quote, 0)
			q.was = tc.was
			q.shown = q.shown.Add(-kit.KeyGuard) // its keys enabled: enter is offered
			const h = 18                         // the screen's part of a 60x20 terminal
			q.SetSize(60, h)
			view := ansi.Strip(q.View())
			if n := len(strings.Split(view, "\n")); n > h {
				t.Errorf("%d lines, want at most %d:\n%s", n, h, view)
			}
			for _, want := range append([]string{"Expires in", "Press enter to review", "You pay", "You receive", "You lose", "Bridge fee"}, tc.wants...) {
				if !strings.Contains(view, want) {
					t.Errorf("lacks %q:\n%s", want, view)
				}
			}
			q.SetSize(120, 40)
			if view := ansi.Strip(q.View()); !strings.Contains(view, tc.quote.QuoteID) {
				t.Errorf("with room, the quote's id is not shown:\n%s", view)
			}
		})
	}
}

// TestCappedReviewSignsAtTheSmallestTerminal (seen in tmux): the review of
// a withdrawal with a fee cap and a severe loss can be signed at 60x20, as
// it could before every face drew the same facts: the cap, a limit the
// quote already met, is a detail there; the fee and the loss stay.
func TestCappedReviewSignsAtTheSmallestTerminal(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	w := sandboxChoice(t, app)
	w.Amount, w.FeeCap = decimal.RequireFromString("2"), decimal.NewNullDecimal(decimal.RequireFromString("30"))
	small := fixedQuote(*now, "1.5")
	small.PayAmount, small.ReceiveAmount = decimal.RequireFromString("2"), decimal.RequireFromString("0.5")
	r := newReview(app, w, withdrawal.PricedQuote{Quote: small})
	r.SetSize(60, 18)
	r.Init()
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	if check := r.checkBridge(); check != nil {
		r.Update(check())
	}
	*now = now.Add(kit.ShownGuard)
	view := ansi.Strip(r.View())
	if !screentest.Offers(r.KeyMap(), "enter") {
		t.Fatalf("at 60x18 enter is not offered:\n%s", view)
	}
	for _, want := range []string{"Bridge fee", "You lose", "75%", "Press enter to sign"} {
		if !strings.Contains(view, want) {
			t.Errorf("lacks %q:\n%s", want, view)
		}
	}
	r.SetSize(120, 40)
	if view := ansi.Strip(r.View()); !strings.Contains(view, "Fee cap") {
		t.Errorf("with room, the fee cap is not shown:\n%s", view)
	}
}
