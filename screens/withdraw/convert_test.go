package withdraw

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestReviewSaysAConversion: the review of a USDT → USDC quote (the
// sandbox pays 23.5 × 1.0002 USDC of 25 USDT, above 1:1) says the USDC is
// converted and that the loss is the fee, in its facts and its warning,
// and fits 60x20.
func TestReviewSaysAConversion(t *testing.T) {
	app, _, _ := hostileApp(t, true)
	w := sandboxChoice(t, app)
	w.TokenOut = exchange.TokenUSDC
	cx, cancel := kit.Call(context.Background())
	defer cancel()
	q, err := app.Client().Quote(cx, w.QuoteRequest())
	if err != nil {
		t.Fatal(err)
	}
	r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
	r.SetSize(120, 40)
	r.Init()
	view := screentest.OneLine(ansi.Strip(r.View()))
	for _, want := range []string{"23.5047 USDC on ARBITRUM", "the bridge converts USDT to USDC", "1.5 USDT, 6% of the amount",
		"the fee; the bridge converts the remaining 23.5 USDT to 23.5047 USDC"} {
		if !strings.Contains(view, want) {
			t.Errorf("the review lacks %q:\n%s", want, view)
		}
	}
	// At 80x24 and 60x20 it fits, as a USDT one does (at 60x20 its
	// receive amount, too long to go beside what is paid, leaves the fee
	// to go there), and still says the conversion and what the loss is.
	for _, size := range [][2]int{{80, 22}, {60, 18}} { // the screen's part of the terminal
		r.SetSize(size[0], size[1])
		small := ansi.Strip(r.View())
		// Each note beside or under its own value, never after another fact.
		one := strings.Join(strings.Fields(small), " ")
		if strings.Contains(small, "Too small") || !strings.Contains(one, "23.5047 USDC on ARBITRUM the bridge converts USDT to USDC") ||
			!strings.Contains(small, "6% of the amount  the fee") {
			t.Errorf("the review at %dx%d:\n%s", size[0], size[1]+2, small)
		}
	}
	// A payout below 1:1 keeps its valuation at 60x20, in the fewest words.
	q.ReceiveAmount = decimal.RequireFromString("23.4")
	below := newReview(app, w, withdrawal.PricedQuote{Quote: q})
	below.SetSize(60, 18)
	below.Init()
	if small := ansi.Strip(below.View()); strings.Contains(small, "Too small") || !strings.Contains(small, "1.6 USDT, 6.4% of the amount  USDC at 1:1") {
		t.Errorf("a payout below 1:1 at 60x20:\n%s", small)
	}
	// The quote screen, and the review's second question, warn in these words.
	if got, want := lossWords(r.order), "you lose 1.5 USDT of the 25 USDT you pay (6%), all of it the fee."; !strings.HasSuffix(got, want) {
		t.Errorf("the warning %q, want it to end %q", got, want)
	}
}
