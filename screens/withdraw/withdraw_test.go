package withdraw

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestLookAlikeDestinationStops: an address with the same first and last
// characters as a recent destination but a different middle is held until
// the user compares both, with the differing characters marked.
func TestLookAlikeDestinationStops(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	recent := sandbox.DestCompleted // 0x3C44CdDd…FA4293BC
	if err := app.Journal().Append(journal.Entry{Time: screentest.Now, Kind: journal.KindIntent, QuoteID: "q-old",
		Env: config.SandboxEnv, AccountID: sandbox.DemoAccountID,
		Intent: &journal.Intent{ToAddress: recent, Chain: "ARBITRUM"}}); err != nil {
		t.Fatal(err)
	}
	poisoned := "0x3c44cddd" + strings.Repeat("0", 24) + "fa4293bc"
	d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
	d.SetSize(120, 30)
	var s tui.Screen = d
	for _, m := range screentest.RunAll(d.Init()) {
		s, _ = s.Update(m)
	}
	if len(d.recent) != 1 || d.recent[0] != recent {
		t.Fatalf("recent destinations %v, want [%s]", d.recent, recent)
	}
	s = screentest.TypeInto(s, poisoned)
	s, _ = screentest.Press(s, "tab")
	s = screentest.TypeInto(s, "25")
	s, cmd := screentest.Press(s, "enter")
	if screentest.PushedScreen(cmd) != nil {
		t.Fatal("a look-alike destination went on to the quote without a comparison")
	}
	view := ansi.Strip(s.View())
	for _, want := range []string{"looks like one you used before", poisoned, recent} {
		if !strings.Contains(view, want) {
			t.Errorf("comparison lacks %q:\n%s", want, view)
		}
	}
	typed, _ := layout.MarkDiff(app.Common.Styles.Mark, poisoned, recent)
	if !strings.Contains(s.View(), typed) {
		t.Error("the differing characters are not marked")
	}
	if _, cmd := screentest.Press(s, "u"); screentest.PushedScreen(cmd) != nil || d.address.Input.Value() != recent {
		t.Fatalf("u should put the recent address back, got %q", d.address.Input.Value())
	}
	if !d.form.Inputting() {
		t.Error("after u the field under the marker takes no keys")
	}
	// Typing the look-alike again and confirming with y goes on to the quote.
	d.address.Input.SetValue(poisoned)
	s, _ = screentest.Press(s, "enter")
	if _, cmd := screentest.Press(s, "y"); screentest.PushedScreen(cmd) == nil {
		t.Fatal("y after comparing should go on to the quote")
	}
	// Back from the quote (issue 12 bug 2): the field under the marker types.
	before := d.form.Focused().Input.Value()
	screentest.TypeInto(s, "7")
	if got := d.form.Focused().Input.Value(); got != before+"7" {
		t.Errorf("back from the quote, typing does nothing: %q, want %q", got, before+"7")
	}
	// The recent address itself is not a look-alike.
	if withdrawal.LookAlike(recent, []string{recent}) != "" {
		t.Error("the recent address was flagged as a look-alike of itself")
	}
}

// TestDestinationRefusesBadInput: every field is checked before a quote;
// the first bad one gets the focus with the reason under it, whichever
// field had the focus (issue 21 item 16).
func TestDestinationRefusesBadInput(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	cases := []struct{ to, amount, cap, field, want string }{
		{"", "25", "", "Destination", "enter the destination address"},
		{"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc", "25", "", "Destination", "checksum"},
		{sandbox.DestSolana, "25", "", "Destination", ""}, // a Solana address on an EVM route
		{"ethereum:" + sandbox.DestCompleted + "@1", "25", "", "Destination", "payment link"},
		{sandbox.DestCompleted, "25.1234567", "", "Amount USDT", "decimal places"},
		{sandbox.DestCompleted, "0", "", "Amount USDT", "more than zero"},
		{sandbox.DestCompleted, "-5", "", "Amount USDT", "digits"},
		{sandbox.DestCompleted, "1e3", "", "Amount USDT", "digits"},
		{sandbox.DestCompleted, "25", "-1", "Fee cap USDT", "fee cap"},
		{sandbox.DestCompleted, "25", "abc", "Fee cap USDT", "fee cap"},
	}
	for _, c := range cases {
		d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
		d.SetSize(120, 30)
		d.Init()
		d.address.Input.SetValue(c.to)
		d.amount.Input.SetValue(c.amount)
		d.feeCap.Input.SetValue(c.cap)
		d.form.Focus(d.feeCap)
		if c.field == "Fee cap USDT" {
			d.form.Focus(d.address)
		}
		if cmd := d.submit(); screentest.PushedScreen(cmd) != nil {
			t.Errorf("%q %q %q: accepted", c.to, c.amount, c.cap)
			continue
		}
		if fd := d.form.Focused(); fd.Label != c.field {
			t.Errorf("%q %q %q: focus on %s, want %s", c.to, c.amount, c.cap, fd.Label, c.field)
			continue
		}
		if line := screentest.LineAfter(ansi.Strip(d.View()), "› "+c.field); !strings.HasPrefix(strings.TrimSpace(line), "✗ ") || !strings.Contains(line, c.want) {
			t.Errorf("%q %q %q: the reason %q is not under the field: %q", c.to, c.amount, c.cap, c.want, line)
		}
	}
	d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
	d.address.Input.SetValue(sandbox.DestCompleted)
	d.amount.Input.SetValue("25.5")
	// Until the recent destinations are read, the look-alike check cannot
	// run: enter waits for them, then goes on.
	if screentest.PushedScreen(d.submit()) != nil {
		t.Fatal("the form went on before the recent destinations were read")
	}
	if _, cmd := d.Update(recentDestinationsMsg{}); screentest.PushedScreen(cmd) == nil {
		t.Fatalf("a valid form did not go on to the quote:\n%s", ansi.Strip(d.View()))
	}
}

// pricedQuoteScreen is a Quote given a fixed quote, as if the service had answered.
func pricedQuoteScreen(app *kit.App, w withdrawal.Choice, q exchange.Quote, offset time.Duration) *quoteScreen {
	s := newQuote(app, w)
	s.SetSize(120, 30)
	s.Init()
	s.Update(quoteMsg{seq: s.seq, quote: withdrawal.PricedQuote{Quote: q, Offset: offset}})
	return s
}

func fixedQuote(now time.Time, fee string) exchange.Quote {
	return exchange.Quote{QuoteID: "q-test", PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5"),
		Fee: decimal.RequireFromString(fee), FeeUSD: decimal.RequireFromString(fee), Speed: exchange.SpeedFast, ExpiresAt: now.Add(60 * time.Second)}
}

// TestQuoteCountdownFollowsServerClock: the countdown reads expires_at on
// the server's clock; when it runs out, confirming is refused.
func TestQuoteCountdownFollowsServerClock(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted, Amount: decimal.RequireFromString("25")}
	// The server's clock is 30 s ahead of this machine's.
	q := pricedQuoteScreen(app, w, fixedQuote(*now, "1.5"), 30*time.Second)
	if got := q.remaining(); got != 30*time.Second {
		t.Fatalf("remaining %s, want 30s (expires_at minus the server's now)", got)
	}
	if !strings.Contains(ansi.Strip(q.View()), "30s") {
		t.Errorf("the countdown does not show 30s:\n%s", ansi.Strip(q.View()))
	}
	if screentest.PushedScreen(q.confirm()) == nil {
		t.Fatal("a valid quote could not be confirmed")
	}
	*now = now.Add(31 * time.Second)
	if screentest.PushedScreen(q.confirm()) != nil {
		t.Fatal("an expired quote went on to the review")
	}
	if _, cmd := q.Update(countdownMsg{tag: q.tag}); cmd == nil || !q.loading {
		t.Error("an expired quote was not replaced by a fresh one")
	}
	if _, cmd := q.Update(countdownMsg{tag: tui.NextTag()}); cmd != nil {
		t.Error("a tick with another tag was not dropped")
	}
}

// TestFeeCapRefusesQuote: a quote whose fee is above the user's cap cannot
// be confirmed; one at or below it can.
func TestFeeCapRefusesQuote(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted, Amount: decimal.RequireFromString("25"), FeeCap: decimal.NewNullDecimal(decimal.RequireFromString("1"))}
	q := pricedQuoteScreen(app, w, fixedQuote(*now, "1.5"), 0)
	if screentest.PushedScreen(q.confirm()) != nil {
		t.Fatal("a fee of 1.5 passed a cap of 1")
	}
	if !strings.Contains(ansi.Strip(q.View()), "above your cap") {
		t.Errorf("the refusal is not shown:\n%s", ansi.Strip(q.View()))
	}
	w.FeeCap = decimal.NewNullDecimal(decimal.RequireFromString("1.5"))
	if screentest.PushedScreen(pricedQuoteScreen(app, w, fixedQuote(*now, "1.5"), 0).confirm()) == nil {
		t.Fatal("a fee equal to the cap was refused")
	}
}

// TestQuoteRefusedOutsideTheBook: a quote refused because the destination
// is not in the address book says to choose another destination first, as
// a new quote alone cannot help; on the embedded sandbox, whose book is
// fixed and has no web UI, it says ctrl+r fills in the book's destinations.
func TestQuoteRefusedOutsideTheBook(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted, Amount: decimal.RequireFromString("25")}
	demo := app.Target.Demo
	for _, tc := range []struct {
		code      exchange.Code
		sandbox   bool
		want, not []string
	}{
		{exchange.CodeNotInAddressBook, false, []string{"add it in the web UI first", "Press esc to choose another destination, or r to ask again once it is in the address book."}, nil},
		{exchange.CodeNotInAddressBook, true, []string{"not in the sandbox's address book, which is fixed", "Press esc to choose another destination: ctrl+r there fills in the sandbox's address book."}, []string{"web UI first", "once it is in the address book"}},
		{exchange.CodeBelowFee, true, []string{"Press r to try again, or esc to change the amount or destination."}, nil},
	} {
		app.Target.Demo = nil
		if tc.sandbox {
			app.Target.Demo = demo
		}
		q := pricedQuoteScreen(app, w, fixedQuote(*now, "1.5"), 0)
		q.SetSize(120, 40)
		q.Update(quoteMsg{seq: q.seq, err: &exchange.APIError{Status: 400, Code: tc.code}})
		v := strings.Join(strings.Fields(ansi.Strip(q.View())), " ")
		for _, want := range tc.want {
			if !strings.Contains(v, want) {
				t.Errorf("code %d, sandbox %v: no %q:\n%s", tc.code, tc.sandbox, want, v)
			}
		}
		for _, not := range tc.not {
			if strings.Contains(v, not) {
				t.Errorf("code %d, sandbox %v: says %q:\n%s", tc.code, tc.sandbox, not, v)
			}
		}
	}
}

// TestQuoteMustPayTheAmountEntered: what is signed is the quote's pay
// amount, so a quote for another amount is refused.
func TestQuoteMustPayTheAmountEntered(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted, Amount: decimal.RequireFromString("20")}
	q := pricedQuoteScreen(app, w, fixedQuote(*now, "1.5"), 0) // pays 25
	if screentest.PushedScreen(q.confirm()) != nil {
		t.Fatal("a quote paying 25 for 20 entered went on to the review")
	}
	if !strings.Contains(ansi.Strip(q.View()), "not the 20 you entered") {
		t.Errorf("the refusal is not shown:\n%s", ansi.Strip(q.View()))
	}
	w.Amount = decimal.RequireFromString("25.000")
	if screentest.PushedScreen(pricedQuoteScreen(app, w, fixedQuote(*now, "1.5"), 0).confirm()) == nil {
		t.Fatal("25.000 entered and 25 quoted were taken as different")
	}
}

// TestReviewShowsWhatIsSignedAndGuardsKeys: the review shows every Transfer
// field, the amount in USDT, the bridge funding address and the digest that
// gets signed; Enter is ignored for the first second.
func TestReviewShowsWhatIsSignedAndGuardsKeys(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Nonce = func() uint32 { return 77 }
	w, quote := sandboxQuote(t, app)
	r := newReview(app, w, withdrawal.PricedQuote{Quote: quote, Offset: 0})
	r.SetSize(120, 40)
	var s tui.Screen = r
	init := r.Init()
	s, _ = s.Update(init().(tea.BatchMsg)[0]()) // the signing key search
	s, _ = s.Update(r.checkBridge()())          // the bridge address check
	view := ansi.Strip(s.View())
	digest := signer.Digest(app.Target.Env.Domain(), r.order.Transfer).Hex()
	for _, want := range []string{"Transfer", `chainId 327`, sandbox.DemoAddress, sandbox.BridgeFundingAddress,
		"25000000", "= 25 USDT", "nonce", "77", digest, "0x3C44 CdDd B6a9", "sandbox demo key"} {
		if !strings.Contains(view, want) {
			t.Errorf("review lacks %q:\n%s", want, view)
		}
	}
	if _, cmd := screentest.Press(s, "enter"); cmd != nil || r.gate.Sending {
		t.Fatal("enter within the keystroke guard started signing")
	}
	*now = now.Add(kit.ShownGuard)
	_, cmd := screentest.Press(s, "enter")
	if cmd == nil || !r.gate.Sending || r.Busy() != kit.SubmittingWithdrawal(r.app) {
		t.Fatal("enter after the guard did not start signing")
	}
	// Quitting now asks in words true of the embedded sandbox, whose journal
	// ends with the console: nothing is offered at the next start.
	if r.app.Target.Demo == nil || strings.Contains(r.Busy(), "next start") {
		t.Errorf("on the embedded sandbox quitting would ask %q", r.Busy())
	}
}

// sandboxChoice is a 25 USDT withdrawal to the sandbox's paying destination
// on ARBITRUM, with the service's withdrawal info.
func sandboxChoice(t testing.TB, app *kit.App) withdrawal.Choice {
	t.Helper()
	cx, cancel := kit.Call(context.Background())
	defer cancel()
	info, err := app.Client().WithdrawalInfo(cx)
	if err != nil {
		t.Fatal(err)
	}
	return withdrawal.Choice{Info: info, TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted,
		Amount: decimal.RequireFromString("25")}
}

// sandboxQuote is sandboxChoice and a real quote for it.
func sandboxQuote(t testing.TB, app *kit.App) (withdrawal.Choice, exchange.Quote) {
	t.Helper()
	w := sandboxChoice(t, app)
	cx, cancel := kit.Call(context.Background())
	defer cancel()
	q, err := app.Client().Quote(cx, w.QuoteRequest())
	if err != nil {
		t.Fatal(err)
	}
	return w, q
}

// reviewFor is a review of a fixed quote, sized, with its signing key
// search answered by found and the keystroke guard passed.
func reviewFor(t *testing.T, app *kit.App, now *time.Time, q exchange.Quote, offset time.Duration, w, h int, found signer.Found) *reviewScreen {
	t.Helper()
	r := newReview(app, sandboxChoice(t, app), withdrawal.PricedQuote{Quote: q, Offset: offset})
	r.SetSize(w, h)
	r.Init()
	r.Update(keyFound(r, found))
	if check := r.checkBridge(); check != nil { // none when it cannot be signed at all
		r.Update(check())
	}
	*now = now.Add(kit.ShownGuard)
	return r
}

// keyFound is the answer to r's key search (the one it asked last): the
// key was found at found.
func keyFound(r *reviewScreen, found signer.Found) kit.KeyFoundMsg {
	return kit.KeyFoundMsg{For: r.gate.Key.Asked, Found: found}
}

// TestReviewCountdownAndExpiry: the review shows the quote's time left by
// the service's clock and ticks with its own tag; once the quote ran out it
// says so, stops ticking, and enter signs nothing.
func TestReviewCountdownAndExpiry(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	q := fixedQuote(*now, "1.5") // expires in 60 s by the local clock
	// The server's clock is 30 s ahead; the guard takes kit.ShownGuard.
	r := reviewFor(t, app, now, q, 30*time.Second, 120, 40, signer.Found{Place: signer.KeyDemo})
	left := fmt.Sprintf("Quote expires in %ds", 30-int(kit.ShownGuard/time.Second))
	if view := ansi.Strip(r.View()); !strings.Contains(view, left) {
		t.Fatalf("no countdown %q:\n%s", left, view)
	}
	if !screentest.Offers(r.KeyMap(), "enter") {
		t.Error("a valid quote's review does not offer enter")
	}
	if _, cmd := r.Update(countdownMsg{tag: r.tag}); cmd == nil {
		t.Error("the countdown does not tick while the quote is valid")
	}
	if _, cmd := r.Update(countdownMsg{tag: tui.NextTag()}); cmd != nil {
		t.Error("a tick with another tag was not dropped")
	}
	old := r.tag
	if r.Resume() == nil || r.tag == old {
		t.Error("Resume did not re-tag and restart the countdown")
	}
	if _, cmd := r.Update(countdownMsg{tag: old}); cmd != nil {
		t.Error("a tick from before Resume still ticks")
	}
	*now = now.Add(30 * time.Second)
	if _, cmd := r.Update(countdownMsg{tag: r.tag}); !isPop(cmd) {
		t.Error("the review of an expired quote did not go back for a fresh one")
	}
	view := ansi.Strip(r.View())
	if !strings.Contains(view, "Quote expired: press r to get a new one") || strings.Contains(view, "Press enter to sign") {
		t.Errorf("the expiry is not shown, or enter is still offered:\n%s", view)
	}
	if screentest.Offers(r.KeyMap(), "enter") || !screentest.Offers(r.KeyMap(), "r") {
		t.Errorf("after expiry the footer offers %v", r.KeyMap().ShortHelp())
	}
	if _, cmd := screentest.Press(r, "enter"); !isPop(cmd) || r.gate.Sending {
		t.Fatal("enter on an expired quote started signing, or did not go back for a fresh one")
	}
}

// TestReviewGuardAndSendingKeys: the guard a review starts as it shows holds with the
// countdown, and no enter is offered while the withdrawal is out.
func TestReviewGuardAndSendingKeys(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	r.gate.Guard() // as if just shown
	if _, cmd := screentest.Press(r, "enter"); cmd != nil || r.gate.Sending {
		t.Fatal("enter within the keystroke guard started signing")
	}
	*now = now.Add(kit.ShownGuard)
	if _, cmd := screentest.Press(r, "enter"); cmd == nil || !r.gate.Sending {
		t.Fatal("enter after the guard did not sign")
	}
	if screentest.Offers(r.KeyMap(), "enter") || screentest.Offers(r.KeyMap(), "r") {
		t.Errorf("while sending the footer offers %v", r.KeyMap().ShortHelp())
	}
}

// TestQuoteKeysFollowState: enter is offered only for a quote that can go
// on; a refusal says why, with the token, and does not invite enter.
func TestQuoteKeysFollowState(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, ToAddress: sandbox.DestCompleted, Amount: decimal.RequireFromString("25")}
	loading := newQuote(app, w)
	loading.Init()
	if screentest.Offers(loading.KeyMap(), "enter") || screentest.Offers(loading.KeyMap(), "r") {
		t.Errorf("while loading the footer offers %v", loading.KeyMap().ShortHelp())
	}
	if q := pricedQuoteScreen(app, w, fixedQuote(*now, "1.5"), 0); !screentest.Offers(q.KeyMap(), "enter") {
		t.Error("a valid quote does not offer enter")
	}
	capped := w
	capped.FeeCap = decimal.NewNullDecimal(decimal.RequireFromString("1"))
	q := pricedQuoteScreen(app, capped, fixedQuote(*now, "1.5"), 0)
	view := ansi.Strip(q.View())
	if !strings.Contains(view, "the fee 1.5 USDT is above your cap of 1 USDT") || strings.Contains(view, "Press enter") {
		t.Errorf("fee-cap refusal:\n%s", view)
	}
	if screentest.Offers(q.KeyMap(), "enter") || !screentest.Offers(q.KeyMap(), "r") {
		t.Errorf("a refused quote's footer offers %v", q.KeyMap().ShortHelp())
	}
	other := w
	other.Amount = decimal.RequireFromString("20")
	if q := pricedQuoteScreen(app, other, fixedQuote(*now, "1.5"), 0); screentest.Offers(q.KeyMap(), "enter") || strings.Contains(ansi.Strip(q.View()), "Press enter") {
		t.Errorf("a quote for another amount offers enter:\n%s", ansi.Strip(q.View()))
	}
	failed := newQuote(app, w)
	failed.SetSize(60, 18)
	failed.Init()
	failed.Update(quoteMsg{seq: failed.seq, err: exchange.UserError{Text: strings.Repeat("the bridge has no liquidity on this route ", 3)}})
	if screentest.Offers(failed.KeyMap(), "enter") {
		t.Error("a refused quote request offers enter")
	}
	if !strings.Contains(squash(failed.View()), squash(strings.Repeat("the bridge has no liquidity on this route ", 3))) {
		t.Errorf("the refusal is cut:\n%s", ansi.Strip(failed.View()))
	}
	expired := pricedQuoteScreen(app, w, fixedQuote(*now, "1.5"), 61*time.Second)
	if screentest.Offers(expired.KeyMap(), "enter") {
		t.Error("an expired quote offers enter")
	}
}

// TestMarkDiffHexIgnoresCase: between 0x-hex addresses only real
// differences are marked, not the checksum's case; in base58 case counts.
func TestMarkDiffHexIgnoresCase(t *testing.T) {
	mark := lipgloss.NewStyle().Transform(func(s string) string { return "[" + s + "]" })
	a, b := layout.MarkDiff(mark, "0x3C44CdDdB6a9", "0x3c44cddd0000")
	if a != "0x3C44CdDd[B][6][a][9]" || b != "0x3c44cddd[0][0][0][0]" {
		t.Errorf("hex marked %q / %q", a, b)
	}
	a, b = layout.MarkDiff(mark, "7EcDhSYGxXzscS", "7ecDhSYGxXzscs")
	if a != "7[E]cDhSYGxXzsc[S]" || b != "7[e]cDhSYGxXzsc[s]" {
		t.Errorf("base58 marked %q / %q", a, b)
	}
	// The carets under them mark the same characters, in the text alone.
	for _, c := range []struct{ a, b, want string }{
		{"0x3C44CdDdB6a9", "0x3c44cddd0000", "          ^^^^"},
		{"7EcDhSYGxXzscS", "7ecDhSYGxXzscs", " ^           ^"},
		{"0xabc", "0xabcd", "     ^"},
	} {
		if got := layout.DiffCarets(c.a, c.b); got != c.want {
			t.Errorf("DiffCarets(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
