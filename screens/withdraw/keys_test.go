package withdraw

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestReviewRequoteKeyActsInPassphraseField (issue 12 bug 1): with a
// keystore key the passphrase field has the focus, so r is a letter of the
// passphrase; the hints name ctrl+r, which gets a new quote, before and
// after expiry, and r goes into the field.
func TestReviewRequoteKeyActsInPassphraseField(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key.json"})
	view := ansi.Strip(r.View())
	if strings.Contains(view, "; r for a new quote") || !strings.Contains(view, "ctrl+r for a new quote") {
		t.Errorf("the prompt names a key the passphrase field takes:\n%s", view)
	}
	if screentest.Offers(r.KeyMap(), "r") || !screentest.Offers(r.KeyMap(), "ctrl+r") {
		t.Errorf("the footer offers %v", r.KeyMap().ShortHelp())
	}
	if _, cmd := screentest.Press(r, "r"); cmd != nil && isPop(cmd) {
		t.Fatal("r in the passphrase field went back")
	}
	if r.gate.Key.Pass.Value() != "r" {
		t.Errorf("r was not typed into the passphrase field: %q", r.gate.Key.Pass.Value())
	}
	*now = now.Add(time.Minute)
	view = ansi.Strip(r.View())
	if !strings.Contains(view, "press ctrl+r to get a new one") {
		t.Errorf("the expiry names another key than ctrl+r:\n%s", view)
	}
	if _, cmd := screentest.Press(r, "ctrl+r"); !isPop(cmd) {
		t.Error("ctrl+r did not go back to a new quote")
	}
}

// TestReviewSaysRequoteAsItsFooter: the review's text and its footer name
// the new-quote key in one wording ("r for a new quote", "r new quote"),
// as the quote screen's footer does, with a keystore key's ctrl+r too.
func TestReviewSaysRequoteAsItsFooter(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	for _, found := range []signer.Found{{Place: signer.KeyDemo}, {Place: signer.KeyInKeystore, Path: "/k/UTC--key.json"}} {
		r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, found)
		h := r.requoteKey().Help()
		if view := ansi.Strip(r.View()); h.Desc != quoteKeys.Requote.Help().Desc || !strings.Contains(view, h.Key+" for a "+h.Desc) {
			t.Errorf("the footer says %q %q, the quote screen's %q; the review says:\n%s", h.Key, h.Desc, quoteKeys.Requote.Help().Desc, view)
		}
	}
}

// TestReviewOffersEnterOnlyWhenItSigns (issue 12 bug 3): no enter next to
// "Signing key none found", nor after a final screening refusal.
func TestReviewOffersEnterOnlyWhenItSigns(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{})
	view := ansi.Strip(r.View())
	if screentest.Offers(r.KeyMap(), "enter") || strings.Contains(view, "Press enter to sign") {
		t.Errorf("without a key enter is offered: %v\n%s", r.KeyMap().ShortHelp(), view)
	}
	r = reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	if !screentest.Offers(r.KeyMap(), "enter") {
		t.Fatal("with the demo key enter is not offered")
	}
	r.Update(executedMsg{withdrawal.Sent{Err: &exchange.APIError{Status: 403, Code: exchange.CodeAddressFlagged}}})
	if screentest.Offers(r.KeyMap(), "enter") {
		t.Errorf("after a screening refusal the footer offers %v", r.KeyMap().ShortHelp())
	}
	if _, cmd := screentest.Press(r, "enter"); screentest.Acts(cmd) || r.gate.Sending {
		t.Error("enter after a screening refusal signed again")
	}
}

// isPop reports whether cmd pops the screen.
func isPop(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tui.PopMsg)
	return ok
}

// TestRouteOffersOnlyWhatActs (issue 12 bug 3): on the USDT routes every
// key works; after tab to USDC, which has no routes, only tab and r do.
func TestRouteOffersOnlyWhatActs(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	r := New(app).(*routeScreen)
	r.SetSize(120, 40)
	screentest.Drive(r, r.Init())
	for _, k := range []string{"enter", "up", "left", "tab", "r"} {
		if !screentest.Offers(r.KeyMap(), k) {
			t.Errorf("the USDT routes do not offer %s: %v", k, r.KeyMap().ShortHelp())
		}
	}
	screentest.Press(r, "tab")
	if src := r.sources[r.source]; src != exchange.TokenUSDC {
		t.Fatalf("tab chose %s", src)
	}
	for _, k := range []string{"enter", "up", "left"} {
		if screentest.Offers(r.KeyMap(), k) {
			t.Errorf("USDC without routes offers %s: %v", k, r.KeyMap().ShortHelp())
		}
	}
	if !screentest.Offers(r.KeyMap(), "tab") || !screentest.Offers(r.KeyMap(), "r") {
		t.Errorf("USDC without routes lost tab or r: %v", r.KeyMap().ShortHelp())
	}
}

// TestRefusedAmountGoesBackToAmount (issue 12 friction): after the service
// refuses a quote for its amount, esc lands on the amount, with the reason
// under it, and typing changes the amount and takes the reason away.
func TestRefusedAmountGoesBackToAmount(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	c.Open(New(c.App))
	c.FillDestinationFromRoute(sandbox.DestCompleted, "1")
	c.Press("enter")
	c.UntilShows("Quote refused")
	c.Press("esc")
	c.UntilShows("› Amount USDT")
	if under := screentest.LineAfter(c.Plain(), "› Amount USDT"); !strings.Contains(under, "✗ The amount does not cover the bridge fee") {
		t.Fatalf("back from the refused quote, the reason is not under the amount:\n%s", c.Plain())
	}
	c.Press("backspace")
	c.TypeText("30")
	if !strings.Contains(c.Plain(), "› Amount USDT    30") {
		t.Errorf("typing after esc did not change the amount:\n%s", c.Plain())
	}
	if strings.Contains(c.Plain(), "bridge fee") {
		t.Error("the refusal stays after the amount changed")
	}
}

// TestRouteFilter (issue 12 friction): / narrows the destination chains as
// it is typed; letters are text meanwhile (h, l, t, k, j move nothing);
// enter keeps the filter and continues on a filtered chain.
func TestRouteFilter(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	r := New(app).(*routeScreen)
	r.SetSize(120, 40)
	screentest.Drive(r, r.Init())
	screentest.Press(r, "/")
	if !r.Inputting() {
		t.Fatal("/ did not start the filter")
	}
	screentest.TypeInto(r, "sol")
	screentest.Press(r, "enter")
	if r.list.Len() != 1 || r.list.Item(0).Chain != "SOLANA" {
		t.Fatalf("filter sol lists %d chains", r.list.Len())
	}
	if v := ansi.Strip(r.View()); !strings.Contains(v, "/ sol") || strings.Contains(v, "ARBITRUM") {
		t.Errorf("the filtered view:\n%s", v)
	}
	if d, ok := screentest.PushedScreen(func() tea.Cmd { _, c := screentest.Press(r, "enter"); return c }()).(*destinationScreen); !ok || d.w.Route.Chain != "SOLANA" {
		t.Errorf("enter on the filtered list did not go on with SOLANA")
	}
}

// TestTypingAndPastingNeverQuit: in the destination field, q and ? are text
// and a bracketed paste goes to the field.
func TestTypingAndPastingNeverQuit(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	screentest.TypeAndPasteUnderRoot(t, "destination", app, newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum}))
}

// TestFilterTakesPastes: while the route filter is typed, a bracketed paste
// goes into it like typed keys (it used to be dropped).
func TestFilterTakesPastes(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	r := New(app).(*routeScreen)
	screentest.FilterTakesPaste(t, "route", r, &r.list)
}

// TestKeyNeverKept: a private key typed or pasted into the destination
// form or the route filter is cleared and said, never shown (issue 17
// item 7).
func TestKeyNeverKept(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
	var fields []screentest.KeyField
	for _, fd := range []*kit.FormField{d.address, d.amount, d.feeCap} {
		fields = append(fields, screentest.KeyField{Name: fd.Label,
			Focus: func() tea.Cmd { return d.form.Focus(fd) }, Value: func() string { return fd.Input.Value() }})
	}
	screentest.RequireKeyCleared(t, app, d, fields...)
	r := New(app).(*routeScreen)
	screentest.RequireKeyCleared(t, app, r, screentest.KeyField{Name: "route filter", Focus: r.list.StartFilter, Value: r.list.Filter})
}

// TestReviewWaitsForTheKey (issue 21 bug 12): while the signing key is being
// looked up the review says so and offers no enter; enter then leaves no
// message behind, and once the key is found (and has shown for
// kit.KeyGuard) the review offers to sign.
func TestReviewWaitsForTheKey(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := newReview(app, sandboxChoice(t, app), withdrawal.PricedQuote{Quote: fixedQuote(*now, "1.5")})
	r.SetSize(120, 40)
	r.Init()
	if check := r.checkBridge(); check != nil {
		r.Update(check())
	}
	*now = now.Add(kit.ShownGuard)
	view := ansi.Strip(r.View())
	if screentest.Offers(r.KeyMap(), "enter") || strings.Contains(view, "Press enter to sign") || !strings.Contains(view, "Looking for the signing key") {
		t.Fatalf("before the key is found: %v\n%s", r.KeyMap().ShortHelp(), view)
	}
	if _, cmd := screentest.Press(r, "enter"); screentest.Acts(cmd) || r.gate.Sending {
		t.Fatal("enter signed before the key was found")
	}
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	// Which key signs is part of the review: a key found after the guard
	// holds keys a whole guard again, so a held enter never signs unseen.
	if _, cmd := screentest.Press(r, "enter"); cmd != nil || r.gate.Sending || screentest.Offers(r.KeyMap(), "enter") {
		t.Fatal("enter signed as the key was found")
	}
	*now = now.Add(kit.ShownGuard)
	view = ansi.Strip(r.View())
	if !screentest.Offers(r.KeyMap(), "enter") || !strings.Contains(view, "Press enter to sign") || strings.Contains(view, "Still looking") {
		t.Fatalf("once the key is found: %v\n%s", r.KeyMap().ShortHelp(), view)
	}
}

// TestDestinationChecksAsTyped (issue 21 item 16): the amount and the fee
// cap are checked as they are typed, as the destination is, with the
// reason under the field; a fee cap over 5% of the amount is warned of; a
// pasted payment link's "ethereum:" is dropped, and one with more than an
// address is kept whole and refused.
func TestDestinationChecksAsTyped(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
	d.SetSize(120, 30)
	var s tui.Screen = screentest.Drive(d, d.Init())
	under := func(label string) string {
		return strings.TrimSpace(screentest.LineAfter(ansi.Strip(s.View()), label+" "))
	}
	link := "ethereum:" + sandbox.DestCompleted + "@1/transfer?address=" + sandbox.DestFailed
	s.Update(tea.PasteMsg{Content: link})
	if got := d.address.Input.Value(); got != link || !strings.HasPrefix(under("Destination"), "✗ that is a payment link") {
		t.Errorf("a pasted payment link with more than an address: %q in the field, %q under it", got, under("Destination"))
	}
	d.address.Input.SetValue("")
	s.Update(tea.PasteMsg{Content: " ethereum:" + sandbox.DestCompleted})
	if got := d.address.Input.Value(); got != sandbox.DestCompleted {
		t.Errorf("a pasted payment link left %q in the field", got)
	}
	if got := under("Destination"); got != "✓ valid EVM address" {
		t.Errorf("under the pasted address: %q", got)
	}
	s, _ = screentest.Press(s, "tab")
	s = screentest.TypeInto(s, "25.1234567")
	if got := under("Amount USDT"); got != "✗ amount has 7 decimal places; at most 6 are allowed" {
		t.Errorf("under the amount as typed: %q", got)
	}
	for range 8 {
		s, _ = screentest.Press(s, "backspace")
	}
	s, _ = screentest.Press(s, "tab")
	for _, c := range []struct{ typed, want string }{
		{"x", "✗ fee cap must be a plain decimal such as 2.5, or empty for none"},
		{"1", "4% of the amount"},
		{"2", "! 8% of the amount: a quote may take that much in fees"},
		{"1.25", "5% of the amount"},
	} {
		for d.feeCap.Input.Value() != "" {
			s, _ = screentest.Press(s, "backspace")
		}
		s = screentest.TypeInto(s, c.typed)
		if got := under("Fee cap USDT"); got != c.want {
			t.Errorf("fee cap %s on 25: %q, want %q", c.typed, got, c.want)
		}
	}
}

// TestRouteSentenceFits: the route's sentence under the list is whole at
// every width: at 60 columns its shorter wording, not "ARBITRU…".
func TestRouteSentenceFits(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	r := New(app).(*routeScreen)
	r.SetSize(120, 40)
	screentest.Drive(r, r.Init())
	for w, want := range map[int]string{120: "Send USDT from the funding account, receive USDT on ARBITRUM.", 60: "Send USDT, receive USDT on ARBITRUM."} {
		r.SetSize(w, 20)
		if v := ansi.Strip(r.View()); !strings.Contains(v, want) {
			t.Errorf("at %d columns no %q:\n%s", w, want, v)
		}
	}
}

// TestReviewLooksAgainForADroppedKey: the key search's answer reaches the
// top screen only; one that landed while the bridge confirmation stood on
// top of the review was dropped, and the review, back on top, must look
// again rather than say "Still looking" for good and never sign.
func TestReviewLooksAgainForADroppedKey(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := newReview(app, sandboxChoice(t, app), withdrawal.PricedQuote{Quote: fixedQuote(*now, "1.5")})
	r.SetSize(120, 40)
	r.Init() // its search's answer is dropped: another screen is on top
	for _, msg := range untimed(r.Resume()) {
		r.Update(msg)
	}
	*now = now.Add(kit.ShownGuard)
	if !screentest.Offers(r.KeyMap(), "enter") {
		t.Fatalf("back on top, the review never found its key: %v\n%s", r.KeyMap().ShortHelp(), ansi.Strip(r.View()))
	}
}

// untimed runs cmd's commands but its timers, and gives their messages.
func untimed(cmd tea.Cmd) []tea.Msg {
	if cmd == nil || screentest.IsTimer(cmd) {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, untimed(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// TestRouteNamesOnlyKeysThatAct: enter on a source token with no routes
// names tab only while another source is there to choose; a service that
// gives no source token at all is said, never crashes the screen.
func TestRouteNamesOnlyKeysThatAct(t *testing.T) {
	for name, route := range map[string]map[string][]exchange.WithdrawalRoute{
		"USDT without routes": {exchange.TokenUSDT: nil},
		"no source token":     {},
	} {
		app, _ := screentest.LoggedInApp(t)
		r := New(app).(*routeScreen)
		r.SetSize(120, 40)
		r.Update(withdrawalInfoMsg{info: exchange.WithdrawalInfo{Provider: "bridge", Route: route}})
		view := r.View()
		screentest.RequireNamedKeysAct(t, name, view, func(k string) bool { return screentest.Offers(r.KeyMap(), k) })
		_, cmd := screentest.Press(r, "enter")
		if cmd == nil {
			t.Fatalf("%s: enter says nothing:\n%s", name, ansi.Strip(view))
		}
		said := screentest.FindMsg[tui.ErrorMsg](t, screentest.RunCmdSync(t, cmd)).Err.Error()
		screentest.RequireNamedKeysAct(t, name+", enter", said, func(k string) bool { return screentest.Offers(r.KeyMap(), k) })
	}
}

// TestSecretClearedSaysTheField: a recovery phrase pasted into a field of
// the destination form is cleared saying what the field wants instead
// (kit.SecretCleared), the next step.
func TestSecretClearedSaysTheField(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	d := newDestination(app, withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum})
	for fd, wants := range map[*kit.FormField]string{d.address: "the destination address", d.amount: "the amount", d.feeCap: "a fee cap, or nothing"} {
		screentest.RequireSecretClearedSays(t, fd.Label, fd.Input, wants)
	}
}
