package withdraw

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// timed records what the screen's timers deliver, at once.
func timed(app *kit.App) {
	app.Timer = func(_ time.Duration, msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
}

// answered hands q a fresh quote, as the service would answer its request.
func answered(t *testing.T, q *quoteScreen, quote exchange.Quote) {
	t.Helper()
	if !q.loading {
		t.Fatal("no quote was being asked for")
	}
	q.Update(quoteMsg{seq: q.seq, quote: withdrawal.PricedQuote{Quote: quote}})
}

// quoteAt is a 60 s quote from now receiving receive for a fee of fee.
func quoteAt(now time.Time, id, receive, fee string) exchange.Quote {
	q := fixedQuote(now, fee)
	q.QuoteID, q.ReceiveAmount = id, decimal.RequireFromString(receive)
	return q
}

// TestQuoteRequotesAtItsMargin: the countdown asks a fresh quote by itself
// when the quote in hand reaches the margin it may still be signed with (5
// s left, not 4: the boundary is the margin itself), marks what changed
// until the next key, and counts down again.
func TestQuoteRequotesAtItsMargin(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	timed(app)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted, Amount: decimal.RequireFromString("25")}
	q := pricedQuoteScreen(app, w, quoteAt(*now, "q-1", "23.5", "1.5"), 0)
	*now = now.Add(54 * time.Second) // 6 s left: it may still be signed
	if _, cmd := q.Update(countdownMsg{tag: q.tag}); cmd == nil || q.loading {
		t.Fatal("with 6 s left the countdown did not go on, or asked for a fresh quote")
	}
	if !screentest.Offers(q.KeyMap(), "enter") {
		t.Error("with 6 s left enter is not offered")
	}
	*now = now.Add(time.Second) // exactly the margin
	if screentest.Offers(q.KeyMap(), "enter") || screentest.PushedScreen(q.confirm()) != nil {
		t.Error("a quote with exactly 5 s left can still be reviewed")
	}
	if _, cmd := q.Update(countdownMsg{tag: tui.NextTag()}); cmd != nil || q.loading {
		t.Error("a tick of another tag asked for a fresh quote")
	}
	if _, cmd := q.Update(countdownMsg{tag: q.tag}); cmd == nil || !q.loading {
		t.Fatal("at its margin the quote was not replaced by a fresh one")
	}
	answered(t, q, quoteAt(*now, "q-2", "23.4", "1.6"))
	view := screentest.OneLine(ansi.Strip(q.View()))
	for _, want := range []string{"A fresh quote", "q-2", "◆ was 23.5", "◆ was 1.5", "◆ was 1.5 "} {
		if !strings.Contains(view, want) {
			t.Errorf("after the fresh quote the screen lacks %q:\n%s", want, ansi.Strip(q.View()))
		}
	}
	// A key as it came was meant for the quote before: it neither acts nor
	// hides the marks.
	if _, cmd := screentest.Press(q, "enter"); screentest.Offers(q.KeyMap(), "enter") || screentest.PushedScreen(cmd) != nil {
		t.Error("the fresh quote could be reviewed the moment it came")
	}
	*now = now.Add(kit.ShownGuard)
	if !screentest.Offers(q.KeyMap(), "enter") || !strings.Contains(ansi.Strip(q.View()), "A fresh quote") {
		t.Errorf("the fresh quote cannot be reviewed, or its marks went:\n%s", ansi.Strip(q.View()))
	}
	if _, cmd := q.Update(countdownMsg{tag: q.tag}); cmd == nil || q.loading {
		t.Error("the fresh quote's countdown does not run")
	}
	screentest.Press(q, "x") // any key: what changed was seen
	if view := ansi.Strip(q.View()); strings.Contains(view, "◆") || strings.Contains(view, "A fresh quote") {
		t.Errorf("the marks outlived the next key:\n%s", view)
	}
}

// TestQuoteRequotingStopsWhenIdle: with no key pressed, fresh quotes are
// asked for a few minutes, then no more: the screen says so and r asks.
func TestQuoteRequotingStopsWhenIdle(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	timed(app)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted, Amount: decimal.RequireFromString("25")}
	q := pricedQuoteScreen(app, w, quoteAt(*now, "q-0", "23.5", "1.5"), 0)
	requotes := 0
	for range 10 {
		*now = q.quote.ExpiresAt.Add(-withdrawal.RequoteMargin)
		q.Update(countdownMsg{tag: q.tag})
		if !q.loading {
			break
		}
		requotes++
		answered(t, q, quoteAt(*now, "q-"+string(rune('0'+requotes)), "23.5", "1.5"))
		if view := screentest.OneLine(ansi.Strip(q.View())); !strings.Contains(view, "the amounts are as they were") || strings.Contains(view, "◆") {
			t.Errorf("a fresh quote of the same amounts:\n%s", ansi.Strip(q.View()))
		}
	}
	// At 55 s, 110 s and 165 s; the margin after 220 s is past the 3 minutes.
	if requotes != 3 || !q.stopped {
		t.Fatalf("%d fresh quotes without a key (stopped %v), want 3 and then none", requotes, q.stopped)
	}
	if view := screentest.OneLine(ansi.Strip(q.View())); !strings.Contains(view, "press r for a new quote") || !strings.Contains(view, "without a key") {
		t.Errorf("the stop is not said:\n%s", ansi.Strip(q.View()))
	}
	if !screentest.Offers(q.KeyMap(), "r") || screentest.Offers(q.KeyMap(), "enter") {
		t.Errorf("after the stop the footer offers %v", q.KeyMap().ShortHelp())
	}
	if _, cmd := screentest.Press(q, "r"); cmd == nil || !q.loading || q.stopped {
		t.Error("r did not ask for a new quote")
	}
}

// TestReviewGoesBackAtTheMargin: the review never signs a quote past its
// margin: at the margin (by its countdown, or on enter) it goes back to the
// quote screen, which takes a fresh quote and says why.
func TestReviewGoesBackAtTheMargin(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	timed(app)
	q := pricedQuoteScreen(app, sandboxChoice(t, app), quoteAt(*now, "q-1", "23.5", "1.5"), 0)
	r := reviewFor(t, app, now, q.quote.Quote, 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	*now = now.Add(54500*time.Millisecond - kit.ShownGuard) // over 5 s left: the guard took kit.ShownGuard
	if _, cmd := r.Update(countdownMsg{tag: r.tag}); isPop(cmd) {
		t.Fatal("the review went back with more than the margin left")
	}
	*now = q.quote.ExpiresAt.Add(-withdrawal.RequoteMargin)
	if _, cmd := screentest.Press(r, "enter"); !isPop(cmd) || r.gate.Sending {
		t.Fatal("enter at the margin signed, or did not go back for a fresh quote")
	}
	if _, cmd := r.Update(countdownMsg{tag: r.tag}); !isPop(cmd) {
		t.Fatal("the review's countdown did not go back at the margin")
	}
	if cmd := q.Resume(); cmd == nil || !q.loading {
		t.Fatal("back from the review, the quote screen did not ask for a fresh quote")
	}
	// A key meant for the review that left lands here while the fresh
	// quote is asked for: it does not hide why.
	screentest.Press(q, "enter")
	answered(t, q, quoteAt(*now, "q-2", "23.5", "1.5"))
	if view := screentest.OneLine(ansi.Strip(q.View())); !strings.Contains(view, "Quote q-1 had 5s or less left, too little to sign and send it") {
		t.Errorf("the quote screen does not say why:\n%s", ansi.Strip(q.View()))
	}
}

// TestReviewGoesBackOnceAtTheMargin: enter and the countdown at the margin
// together, in either order, go back to the quote screen once (not on to
// the destination), which shows a fresh quote and why.
func TestReviewGoesBackOnceAtTheMargin(t *testing.T) {
	for _, tickFirst := range []bool{false, true} {
		clock := exchangetest.NewFakeClock(screentest.Now)
		c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{Clock: clock.Now})
		timers := screentest.RecordTimers(c.App) // fired by the test alone
		c.Open(New(c.App))
		c.FillDestinationFromRoute(sandbox.DestCompleted, "25")
		c.Press("enter")
		c.UntilShows("Withdraw: quote", "Press enter to review")
		c.Press("enter")
		c.UntilShows("Quote expires in")
		tick := (*timers)[len(*timers)-1].Msg.(countdownMsg)                              // the review's countdown
		clock.Advance(sandbox.DefaultQuoteTTL - withdrawal.RequoteMargin + time.Second/2) // 4.5 s left
		if tickFirst {
			c.Send(tick)
		}
		c.Press("enter")
		c.Send(tick)
		c.UntilSays("too little to sign and send it: here is a fresh one to review")
		// Another enter as it came does not open its review nor hide why.
		c.Press("enter")
		c.UntilShows("Withdraw: quote", "Read the fresh quote; keys are enabled in 1 s.")
		clock.Advance(kit.ShownGuard)
		c.UntilShows("Withdraw: quote", "Press enter to review", "too little to sign")
	}
}

// TestQuoteTooShortIsNotAskedAgain: a fresh quote that came with no more
// than the margin left is never re-quoted by the countdown (asking again by
// itself would loop at the request budget); r still asks.
func TestQuoteTooShortIsNotAskedAgain(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	timed(app)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted, Amount: decimal.RequireFromString("25")}
	short := quoteAt(*now, "q-1", "23.5", "1.5")
	short.ExpiresAt = now.Add(withdrawal.RequoteMargin)
	q := pricedQuoteScreen(app, w, short, 0)
	if _, cmd := q.Update(countdownMsg{tag: q.tag}); cmd != nil || q.loading {
		t.Fatal("a quote that came with exactly the margin left was asked again by itself")
	}
	if _, cmd := screentest.Press(q, "r"); cmd == nil || !q.loading {
		t.Error("r did not ask for a new quote")
	}
}

// TestFreshRefusedQuoteNamesOnlyKeysThatAct: a fresh quote the choice
// refuses (its fee over the cap) came by itself at the margin: while its
// keys settle (r is off) the screen names no key; once they act it names
// r, which the footer offers.
func TestFreshRefusedQuoteNamesOnlyKeysThatAct(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	timed(app)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted,
		Amount: decimal.RequireFromString("25"), FeeCap: decimal.NewNullDecimal(decimal.RequireFromString("1.5"))}
	q := pricedQuoteScreen(app, w, quoteAt(*now, "q-1", "23.5", "1.5"), 0)
	*now = now.Add(55 * time.Second) // at the margin: a fresh quote is asked
	if _, cmd := q.Update(countdownMsg{tag: q.tag}); cmd == nil || !q.loading {
		t.Fatal("at its margin the quote was not replaced by a fresh one")
	}
	answered(t, q, quoteAt(*now, "q-2", "23.4", "1.6")) // its fee over the cap
	// esc is the root's, which goes back from the quote whenever it is named.
	acts := func(k string) bool { return screentest.Offers(q.KeyMap(), k) || k == "esc" }
	if q.refusal() == "" || !q.settling() {
		t.Fatalf("the fresh quote is not refused (%q) or not settling:\n%s", q.refusal(), ansi.Strip(q.View()))
	}
	screentest.RequireNamedKeysAct(t, "settling", q.View(), acts)
	*now = now.Add(kit.KeyGuard)
	if keys := screentest.NamedKeys(q.View()); !slices.Contains(keys, "r") {
		t.Fatalf("once settled the refused quote names %v, not r:\n%s", keys, ansi.Strip(q.View()))
	}
	screentest.RequireNamedKeysAct(t, "settled", q.View(), acts)
}
