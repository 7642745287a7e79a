package withdraw

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestQuoteFitsTheSmallestTerminal (found by review): a fresh quote with
// a fee cap and a severe loss, at 60x20, keeps its countdown and what
// enter does on screen (the root cuts what passes the bottom) by leaving
// out the facts' notes and details; what is paid, received and lost stays.
func TestQuoteFitsTheSmallestTerminal(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted,
		Amount: decimal.RequireFromString("25"), FeeCap: decimal.NewNullDecimal(decimal.RequireFromString("30"))}
	severe := fixedQuote(*now, "20")
	severe.ReceiveAmount = decimal.RequireFromString("5")
	q := pricedQuoteScreen(app, w, severe, 0)
	was := fixedQuote(*now, "19")
	q.was = &was
	*now = now.Add(kit.KeyGuard) // its keys enabled: enter is offered
	const h = 18                 // the screen's part of a 60x20 terminal
	q.SetSize(60, h)
	view := ansi.Strip(q.View())
	if n := strings.Count(view, "\n"); n > h {
		t.Errorf("%d lines, want at most %d:\n%s", n, h, view)
	}
	for _, want := range []string{"Expires in", "Press enter to review", "You pay", "You receive", "You lose", "Bridge fee", "◆ was"} {
		if !strings.Contains(view, want) {
			t.Errorf("lacks %q:\n%s", want, view)
		}
	}
	q.SetSize(120, 40)
	if view := ansi.Strip(q.View()); !strings.Contains(view, "q-test") {
		t.Errorf("with room, the quote's id is not shown:\n%s", view)
	}
}
