package withdraw

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// repeatGap is a terminal's key repeat: 30 a second, the usual rate.
const repeatGap = 33 * time.Millisecond

// holdDown sends k to s as a key held down sends it, every repeatGap for
// d, the clock moving with it.
func holdDown(s tui.Screen, now *time.Time, k string, d time.Duration) {
	for end := now.Add(d); now.Before(end); *now = now.Add(repeatGap) {
		screentest.Press(s, k)
	}
}

// TestHeldEnterNeverSigns: an enter held down (the one that took the quote
// to its review, say) repeats long after the review's kit.ShownGuard; every
// repeat is a key the person did not give to what they saw, so each one
// dropped holds keys a KeyGuard again. Nothing is signed while it is held,
// the footer offers nothing, and an enter once it was let go signs.
func TestHeldEnterNeverSigns(t *testing.T) {
	r, h, now := shownReview(t)
	r.Update(r.checkBridge()())
	holdDown(r, now, "enter", 3*time.Second)
	if r.gate.Sending || h.withdraws != 0 {
		t.Fatalf("an enter held down signed after %v on the review", 3*time.Second)
	}
	if km := r.KeyMap().ShortHelp(); len(km) != 0 || !strings.Contains(ansi.Strip(r.View()), "keys are enabled in 1 s") {
		t.Fatalf("while a key is held the review offers %v and says:\n%s", km, ansi.Strip(r.View()))
	}
	*now = now.Add(kit.KeyGuard) // let go
	if screentest.Press(r, "enter"); !r.gate.Sending {
		t.Fatalf("enter after the held one was let go did not sign:\n%s", ansi.Strip(r.View()))
	}
}

// TestHeldEnterNeverSignsAgainAfterARefusal: a review the service's
// refusal brought back (a daily limit, which signing again may mend) shows
// again with it, so it holds keys kit.ShownGuard from then: an enter held
// through the send, or pressed twice, never signs the quote again before
// the refusal was read.
func TestHeldEnterNeverSignsAgainAfterARefusal(t *testing.T) {
	r, _, now := shownReview(t)
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard)
	if screentest.Press(r, "enter"); !r.gate.Sending {
		t.Fatalf("enter on the review did not sign:\n%s", ansi.Strip(r.View()))
	}
	holdDown(r, now, "enter", 100*time.Millisecond) // the send takes a while
	r.Update(executedMsg{withdrawal.Sent{Err: &exchange.APIError{Status: 403, Code: exchange.CodeDailyLimit}}})
	holdDown(r, now, "enter", 2*time.Second)
	if r.gate.Sending {
		t.Fatal("an enter held through a refused send signed the quote again at once")
	}
	if km := r.KeyMap().ShortHelp(); len(km) != 0 {
		t.Fatalf("the review the refusal brought back offers %v while held", km)
	}
	*now = now.Add(kit.KeyGuard) // let go
	if screentest.Press(r, "enter"); !r.gate.Sending {
		t.Fatalf("enter once the refusal was on screen a while did not sign again:\n%s", ansi.Strip(r.View()))
	}
}

// TestHeldEnterRepeatsFirstAfterItsDelay: a terminal repeats a held key
// first after its repeat delay (KDE's 600 ms, X11's 660 ms, Windows' up to
// 1 s, GNOME's and macOS's settable near 2 s), with nothing in between, so
// the hold a review starts as it shows outlasts it: the enter that took the
// quote to its review, held, never signs it, whatever the delay. Seen in
// tmux: a first repeat 1.5 s after the review showed signed, past a 1 s hold.
func TestHeldEnterRepeatsFirstAfterItsDelay(t *testing.T) {
	for _, delay := range []time.Duration{600 * time.Millisecond, 660 * time.Millisecond, 990 * time.Millisecond, 1500 * time.Millisecond, 1900 * time.Millisecond} {
		r, h, now := shownReview(t)
		r.Update(r.checkBridge()())
		*now = now.Add(delay)
		holdDown(r, now, "enter", 2*time.Second)
		if r.gate.Sending || h.withdraws != 0 {
			t.Fatalf("an enter held down whose first repeat came %v after the review showed signed", delay)
		}
		*now = now.Add(kit.KeyGuard) // let go
		if screentest.Press(r, "enter"); !r.gate.Sending {
			t.Fatalf("enter after the held one (repeat delay %v) was let go did not sign:\n%s", delay, ansi.Strip(r.View()))
		}
	}
}

// TestHeldYNeverAnswersTheLossQuestion: the second yes of a mostly-fee
// withdrawal is held to the same rule: a y held down never answers it.
func TestHeldYNeverAnswersTheLossQuestion(t *testing.T) {
	r, h, now := mostlyFeeReview(t)
	screentest.Press(r, "enter")
	holdDown(r, now, "y", 2*time.Second)
	if r.gate.Sending || h.withdraws != 0 {
		t.Fatal("a y held down answered the second question")
	}
	*now = now.Add(kit.KeyGuard)
	if screentest.Press(r, "y"); !r.gate.Sending {
		t.Fatalf("y after the held one was let go did not sign:\n%s", ansi.Strip(r.View()))
	}
}

// TestHeldYNeverTrustsANewBridge: the screen that trusts a changed bridge
// address holds its keys as long as one is held down.
func TestHeldYNeverTrustsANewBridge(t *testing.T) {
	app, _, now := hostileApp(t, false)
	pins := app.Target.BridgePins()
	if err := withdrawal.RecordBridge(app.Target.Env, pins, sandbox.BridgeFundingAddress, *now); err != nil {
		t.Fatal(err)
	}
	s := newBridgeConfirm(app, withdrawal.BridgeChangedError{Env: app.Target.Env.Name, Expected: sandbox.BridgeFundingAddress,
		Seen: attackerBridge, Since: *now})
	s.SetSize(100, 30)
	s.Init()
	holdDown(s, now, "Y", 2*time.Second)
	if s.working || screentest.Offers(s.KeyMap(), "Y") {
		t.Fatal("a Y held down trusted the new address")
	}
	*now = now.Add(kit.KeyGuard)
	if _, cmd := screentest.Press(s, "Y"); cmd == nil {
		t.Fatal("Y after the held one was let go did not confirm")
	}
}

// TestShownAgainHoldsKeys: a review that shows again after the terminal
// was too small for the console (the notice hid it and took every key,
// the repeats of one held down too) holds its keys a ShownGuard from then,
// as when it first showed; so does the bridge confirmation.
func TestShownAgainHoldsKeys(t *testing.T) {
	r, h, now := shownReview(t)
	r.Update(r.checkBridge()())
	*now = now.Add(5 * time.Second) // read, then the terminal was too small a while
	r.Update(tui.ShownAgainMsg{})
	if screentest.Press(r, "enter"); r.gate.Sending || h.withdraws != 0 {
		t.Fatal("an enter as the review showed again signed")
	}
	if km := r.KeyMap().ShortHelp(); len(km) != 0 {
		t.Fatalf("the review shown again offers %v at once", km)
	}
	*now = now.Add(kit.ShownGuard)
	if screentest.Press(r, "enter"); !r.gate.Sending {
		t.Fatalf("enter once the review was shown again a while did not sign:\n%s", ansi.Strip(r.View()))
	}

	app, _, now := hostileApp(t, false)
	if err := withdrawal.RecordBridge(app.Target.Env, app.Target.BridgePins(), sandbox.BridgeFundingAddress, *now); err != nil {
		t.Fatal(err)
	}
	s := newBridgeConfirm(app, withdrawal.BridgeChangedError{Env: app.Target.Env.Name, Expected: sandbox.BridgeFundingAddress,
		Seen: attackerBridge, Since: *now})
	s.SetSize(100, 30)
	s.Init()
	*now = now.Add(5 * time.Second)
	s.Update(tui.ShownAgainMsg{})
	if _, cmd := screentest.Press(s, "Y"); cmd != nil || s.working {
		t.Fatal("a Y as the confirmation showed again trusted the new address")
	}
}

// TestRawPasteNeverSigns: a paste the terminal does not bracket (it has no
// bracketed paste, or the text opens none) comes as keys at once: its
// enter, within intent.PasteGap of the key before, answers nothing and
// holds keys a KeyGuard, as plain mode refuses an answer that came in a
// burst. A passphrase's letters may come pasted into its field (password
// managers paste); the enter pasted with them is held all the same.
func TestRawPasteNeverSigns(t *testing.T) {
	r, h, now := shownReview(t)
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard)
	screentest.Press(r, "x")
	if screentest.Press(r, "enter"); r.gate.Sending || h.withdraws != 0 {
		t.Fatal("an enter pasted with the key before it signed")
	}
	*now = now.Add(kit.KeyGuard)
	if screentest.Press(r, "enter"); !r.gate.Sending {
		t.Fatalf("a typed enter did not sign:\n%s", ansi.Strip(r.View()))
	}

	app, now := screentest.LoggedInApp(t)
	k := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key"})
	screentest.TypeInto(k, "my yellow Yak")
	if k.gate.Key.Pass.Value() != "my yellow Yak" {
		t.Fatalf("the pasted passphrase's letters were not taken: %q", k.gate.Key.Pass.Value())
	}
	if screentest.Press(k, "enter"); k.gate.Sending {
		t.Fatal("an enter pasted with the passphrase signed")
	}
}

// TestRawPasteNeverAnswersTheLossQuestion: while the second yes to a loss
// is asked with a keystore key, the passphrase field still has the focus,
// but y answers the question, not the field: a y that came with the key
// before (an unbracketed paste, a passphrase pasted again) is held as an
// enter is, and only a y typed after a pause signs.
func TestRawPasteNeverAnswersTheLossQuestion(t *testing.T) {
	r, h, now := mostlyFeeReview(t)
	r.Update(keyFound(r, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key"}))
	*now = now.Add(kit.ShownGuard)
	screentest.TypeInto(r, "pw")
	*now = now.Add(kit.KeyGuard)
	screentest.Press(r, "enter")
	if !r.gate.Inputting() {
		t.Fatal("the passphrase field lost the focus when the question was asked: the test no longer tests the field's exception")
	}
	*now = now.Add(kit.ShownGuard)
	if screentest.TypeInto(r, "ay"); r.gate.Sending || h.withdraws != 0 {
		t.Fatal("a y pasted with the key before it answered the second question")
	}
	*now = now.Add(kit.KeyGuard)
	if screentest.Press(r, "y"); !r.gate.Sending {
		t.Fatalf("a typed y did not answer the second question:\n%s", ansi.Strip(r.View()))
	}
}

// TestQuoteIDGivenAgainIsNotOfferedAgain: a quote whose id the journal
// holds for a withdrawal the service accepted is refused at enter
// (withdrawal.QuoteIDUsedError), and the review says so and no longer
// offers enter, which would be refused the same way: r, a new quote, is
// what the words ask for.
func TestQuoteIDGivenAgainIsNotOfferedAgain(t *testing.T) {
	r, h, now := shownReview(t)
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard)
	send := func(r *reviewScreen) executedMsg {
		t.Helper()
		_, cmd := screentest.Press(r, "enter")
		if cmd == nil {
			t.Fatalf("enter did not sign:\n%s", ansi.Strip(r.View()))
		}
		batch, _ := cmd().(tea.BatchMsg)
		msg, _ := batch[1]().(executedMsg)
		return msg
	}
	if msg := send(r); msg.Err != nil {
		t.Fatalf("the first withdrawal: %v", msg.Err)
	}
	again := newReview(r.app, r.order.Choice, withdrawal.PricedQuote{Quote: r.order.Quote})
	again.SetSize(120, 40)
	again.Init()
	again.Update(keyFound(again, signer.Found{Place: signer.KeyDemo}))
	again.Update(again.checkBridge()())
	*now = now.Add(kit.ShownGuard)
	msg := send(again)
	if !errors.As(msg.Err, new(*withdrawal.QuoteIDUsedError)) || h.withdraws != 1 {
		t.Fatalf("the quote id given again: %v, %d withdraw requests", msg.Err, h.withdraws)
	}
	again.Update(msg)
	*now = now.Add(kit.ShownGuard) // the refusal shown holds keys
	view := screentest.OneLine(ansi.Strip(again.View()))
	if !strings.Contains(view, "again: the journal holds it") || screentest.Offers(again.KeyMap(), "enter") || !screentest.Offers(again.KeyMap(), "r") {
		t.Fatalf("after the refusal the review offers %v and says:\n%s", again.KeyMap().ShortHelp(), view)
	}
}

// TestSlowlyTakenPastedPassphraseNeverSigns: a passphrase and its enter
// pasted at once, but taken 100 ms apart by a busy console, are still read
// together: no letter settled before the next came, so the enter is held.
func TestSlowlyTakenPastedPassphraseNeverSigns(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	k := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key"})
	for _, c := range "pw" {
		k.Update(tea.KeyPressMsg{Code: c, Text: string(c)})
		*now = now.Add(100 * time.Millisecond)
	}
	if k.gate.Key.Pass.Value() != "pw" {
		t.Fatalf("the pasted passphrase's letters were not taken: %q", k.gate.Key.Pass.Value())
	}
	if screentest.Press(k, "enter"); k.gate.Sending {
		t.Fatal("an enter pasted with the passphrase, taken 100 ms after it, signed")
	}
}

// TestPassphraseTypedAsTheReviewShowsIsKept: a keystore passphrase typed
// at once as the review shows, while its keys are held, is kept whole in
// its field, backspace too: a fast typist's letters were dropped, and the
// passphrase signed with was silently another. Only answers are held: an
// enter typed, or pasted with the letters (a raw "secret\r"), signs nothing.
func TestPassphraseTypedAsTheReviewShowsIsKept(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := newReview(app, sandboxChoice(t, app), withdrawal.PricedQuote{Quote: fixedQuote(*now, "1.5")})
	r.SetSize(120, 40)
	r.Init()
	r.Update(keyFound(r, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key"}))
	r.Update(r.checkBridge()())
	for _, k := range []string{"m", "y", " ", "p", "x", "backspace", "W"} {
		*now = now.Add(60 * time.Millisecond) // a fast typist
		screentest.Press(r, k)
	}
	if got := r.gate.Key.Pass.Value(); got != "my pW" || !r.gate.Guarded() {
		t.Fatalf("typed while held (%v), the passphrase field holds %q", r.gate.Guarded(), got)
	}
	*now = now.Add(60 * time.Millisecond)
	if screentest.Press(r, "enter"); r.gate.Sending {
		t.Fatal("an enter while the review's keys are held signed")
	}
	r.gate.Key.Pass.SetValue("")
	screentest.TypeInto(r, "secret")
	if screentest.Press(r, "enter"); r.gate.Sending || r.gate.Key.Pass.Value() != "secret" {
		t.Fatalf("a raw paste of a passphrase and enter: signed %v, field %q", r.gate.Sending, r.gate.Key.Pass.Value())
	}
}

// TestStoppedMidPassphraseHoldsKeys: a console stopped mid-passphrase
// (ctrl+z) and continued (fg) is told it shows again, as after the
// too-small notice: the review holds its keys kit.ShownGuard from then,
// keeping what was typed, so an enter typed as it comes back signs nothing.
func TestStoppedMidPassphraseHoldsKeys(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key"})
	screentest.TypeInto(r, "pw")
	*now = now.Add(10 * time.Second) // stopped a while
	r.Update(tui.ShownAgainMsg{})
	*now = now.Add(kit.KeyGuard)
	if screentest.Press(r, "enter"); r.gate.Sending || r.gate.Key.Pass.Value() != "pw" {
		t.Fatalf("an enter as the review came back signed (%v), or the passphrase is %q", r.gate.Sending, r.gate.Key.Pass.Value())
	}
}

// TestPassphraseEditedAsTheReviewShowsIsKept: a correction made in the
// passphrase while the review holds its keys (arrows, home/end, delete,
// ctrl+a/e/u/k/w) is kept as the field would take it unheld: dropped, the
// passphrase signed with was silently another. Enter and ctrl+r (a new
// quote, which leaves the review) are still held.
func TestPassphraseEditedAsTheReviewShowsIsKept(t *testing.T) {
	ctrl := func(c rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: c, Mod: tea.ModCtrl} }
	var keys []tea.KeyPressMsg
	for _, k := range []any{"my pw", ctrl('w'), "pass", tea.KeyHome, tea.KeyDelete, "M", tea.KeyEnd, tea.KeyLeft, tea.KeyLeft, "x",
		ctrl('a'), tea.KeyRight, tea.KeyRight, ctrl('k'), ctrl('e'), " ok", tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt},
		ctrl('u'), ctrl('e'), tea.KeyBackspace, "!"} {
		switch k := k.(type) {
		case string:
			for _, c := range k {
				keys = append(keys, screentest.Key(string(c)))
			}
		case rune:
			keys = append(keys, tea.KeyPressMsg{Code: k})
		case tea.KeyPressMsg:
			keys = append(keys, k)
		}
	}
	typed := func(held bool) (*reviewScreen, string) {
		app, now := screentest.LoggedInApp(t)
		r := newReview(app, sandboxChoice(t, app), withdrawal.PricedQuote{Quote: fixedQuote(*now, "1.5")})
		r.SetSize(120, 40)
		r.Init()
		r.Update(keyFound(r, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key"}))
		r.Update(r.checkBridge()())
		if !held {
			*now = now.Add(kit.ShownGuard)
		}
		for _, k := range keys {
			*now = now.Add(30 * time.Millisecond) // a fast hand: the edits all within the hold
			r.Update(k)
		}
		if held != r.gate.Guarded() {
			t.Fatalf("held %v while typed, want %v", r.gate.Guarded(), held)
		}
		return r, r.gate.Key.Pass.Value()
	}
	_, unheld := typed(false)
	r, got := typed(true)
	if got != unheld || got != "Ma o!" {
		t.Fatalf("edited while held, the passphrase field holds %q; the same keys unheld make %q, want %q", got, unheld, "Ma o!")
	}
	if _, cmd := r.Update(ctrl('r')); screentest.Acts(cmd) {
		t.Fatal("ctrl+r (a new quote) while the review's keys are held left the review")
	}
	if screentest.Press(r, "enter"); r.gate.Sending {
		t.Fatal("an enter while the review's keys are held signed")
	}
}

// TestTooSmallReviewNamesRequoteOnlyWhenItActs: the notice that stands for
// a review too small to show (the help open at 60x20) names r for a new
// quote only once r acts: while keys are held the guard swallows r, so
// the notice must not promise it (a key hint is a promise).
func TestTooSmallReviewNamesRequoteOnlyWhenItActs(t *testing.T) {
	r, _, now := shownReview(t)
	r.Update(r.checkBridge()())
	r.SetSize(60, 12)
	view := ansi.Strip(r.View())
	if !strings.Contains(view, "Too small to review") {
		t.Fatalf("not too small at 60x12:\n%s", view)
	}
	if strings.Contains(view, "for a new quote") || screentest.Offers(r.KeyMap(), "r") {
		t.Fatalf("while keys are held the notice offers r:\n%s", view)
	}
	if _, cmd := r.Update(tea.KeyPressMsg{Code: 'r', Text: "r"}); cmd != nil {
		t.Fatal("r acted while keys were held: the notice may name it then")
	}
	*now = now.Add(kit.KeyGuard + kit.ShownGuard)
	if view = ansi.Strip(r.View()); !strings.Contains(view, "r for a new quote") || !screentest.Offers(r.KeyMap(), "r") {
		t.Fatalf("once keys act the notice does not offer r:\n%s", view)
	}
}

// TestEscHeldOnTheReview: esc is one of the review's answers, held with
// enter and r: pressed while the review holds keys it stays (the review
// says when keys are enabled, and the footer offers no esc), and
// once the hold is over the footer offers it and it goes back to the quote.
func TestEscHeldOnTheReview(t *testing.T) {
	clock := exchangetest.NewFakeClock(screentest.Now)
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{Clock: clock.Now})
	c.Open(New(c.App))
	c.FillDestinationFromRoute(sandbox.DestCompleted, "25")
	c.Press("enter")
	c.UntilShows("Withdraw: quote", "Press enter to review")
	c.Press("enter")
	// The bridge check and the key search landed (the hold counts from
	// each: "pinned", the key named).
	c.UntilShows("Withdraw: review and sign", "pinned", "the sandbox demo key (public", "keys are enabled in 2 s")
	if f := footer(c); strings.Contains(f, "esc") {
		t.Fatalf("the footer offers esc while the review holds keys: %s", f)
	}
	c.Press("esc")
	c.UntilShows("Withdraw: review and sign", "keys are enabled in 2 s")
	clock.Advance(kit.ShownGuard)
	c.UntilShows("Withdraw: review and sign", "Press enter to sign")
	if f := footer(c); !strings.Contains(f, "esc back") {
		t.Fatalf("the hold is over and the footer does not offer esc: %s", f)
	}
	c.Press("esc")
	c.UntilShows("Withdraw: quote", "Press enter to review")
}

// TestRepeatsToldHoldsTheShorterGuard: where the terminal tells a held
// key's repeats (tui.Common.RepeatsTold), a repeat answers nothing whenever
// it comes (TestARepeatNeverAnswers), so the review holds keys only
// kit.ShownGuardTold: an enter pressed then signs; elsewhere it is held.
func TestRepeatsToldHoldsTheShorterGuard(t *testing.T) {
	for _, told := range []bool{true, false} {
		app, _, now := hostileApp(t, true)
		app.Common.RepeatsTold = told
		w, q := sandboxQuote(t, app)
		r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
		r.SetSize(120, 40)
		r.Init()
		r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
		r.Update(r.checkBridge()())
		*now = now.Add(kit.ShownGuardTold)
		if screentest.SendTo(r, "\x1b[13u"); r.gate.Sending != told {
			t.Errorf("repeats told %v: an enter pressed %v after the review showed signed %v", told, kit.ShownGuardTold, r.gate.Sending)
		}
	}
}
