package withdraw

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// mostlyFeeReview is a review of a real sandbox quote for 1.6 USDT, of
// which the fee takes 1.5 (93.75%).
func mostlyFeeReview(t *testing.T) (*reviewScreen, *hostileSandbox, *time.Time) {
	t.Helper()
	app, h, now := hostileApp(t, true)
	w := sandboxChoice(t, app)
	w.Amount = decimal.RequireFromString("1.6")
	cx, cancel := kit.Call(context.Background())
	defer cancel()
	q, err := app.Client().Quote(cx, w.QuoteRequest())
	if err != nil {
		t.Fatal(err)
	}
	r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
	r.SetSize(120, 40)
	r.Init()
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard)
	return r, h, now
}

// TestReviewAsksAgainForAMostlyFeeWithdrawal: the review of a withdrawal
// whose fees take more than half the amount shows the share lost; enter
// then asks for a typed y, n withdraws the question, and only y signs
// (issue 28 item 1).
func TestReviewAsksAgainForAMostlyFeeWithdrawal(t *testing.T) {
	r, h, now := mostlyFeeReview(t)
	if view := ansi.Strip(r.View()); !strings.Contains(view, "You lose         1.5 USDT, 93.8% of the amount") || strings.Contains(view, "(y/n)") {
		t.Fatalf("the review before enter:\n%s", view)
	}
	_, cmd := screentest.Press(r, "y")
	if screentest.Acts(cmd) {
		t.Fatal("y acted before enter asked")
	}
	*now = now.Add(intent.PasteGap) // typed after the y (settled as Press answered it), not pasted with it
	if screentest.Press(r, "enter"); r.gate.Sending {
		t.Fatal("enter signed a withdrawal that is mostly fee without asking again")
	}
	*now = now.Add(kit.ShownGuard)
	view := screentest.OneLine(ansi.Strip(r.View()))
	for _, want := range []string{"Most of this withdrawal goes to fees: you lose 1.5 USDT of the 1.6 USDT you pay (93.8%).", "You lose 1.5 USDT, 93.8% of the amount, to fees. Withdraw all the same? (y/n)"} {
		if !strings.Contains(view, want) {
			t.Errorf("the question lacks %q:\n%s", want, view)
		}
	}
	if !screentest.Offers(r.KeyMap(), "y") || screentest.Offers(r.KeyMap(), "enter") {
		t.Errorf("while asking the review offers %v", r.KeyMap().ShortHelp())
	}
	if screentest.Press(r, "enter"); r.gate.Sending {
		t.Fatal("a second enter signed")
	}
	screentest.Press(r, "n")
	if strings.Contains(ansi.Strip(r.View()), "(y/n)") || screentest.Offers(r.KeyMap(), "y") {
		t.Fatal("n left the question")
	}
	if h.withdraws != 0 {
		t.Fatalf("%d withdraw requests before the second yes", h.withdraws)
	}
}

// TestReviewLossQuestionTakesNoKeyTypedAhead: the second yes is a
// question that signs, so keys are held for kit.ShownGuard once it shows, as
// when the review itself shows (plain mode's gate holds its question as
// long): a y typed with the enter (or an unbracketed paste of both)
// signs nothing, and y once the question has been on screen does.
func TestReviewLossQuestionTakesNoKeyTypedAhead(t *testing.T) {
	r, h, now := mostlyFeeReview(t)
	screentest.Press(r, "enter")
	if screentest.Press(r, "y"); r.gate.Sending || h.withdraws != 0 {
		t.Fatal("a y typed with the enter answered the second question")
	}
	if !strings.Contains(ansi.Strip(r.View()), "keys are enabled in 2 s") || screentest.Offers(r.KeyMap(), "y") {
		t.Fatalf("while the question is held the review says:\n%s", ansi.Strip(r.View()))
	}
	*now = now.Add(kit.ShownGuard)
	if !strings.Contains(ansi.Strip(r.View()), "(y/n)") || !screentest.Offers(r.KeyMap(), "y") {
		t.Fatalf("once held long enough the question is gone:\n%s", ansi.Strip(r.View()))
	}
	if screentest.Press(r, "y"); !r.gate.Sending {
		t.Fatalf("y once the question showed did not sign:\n%s", ansi.Strip(r.View()))
	}
}

// TestReviewSignsAMostlyFeeWithdrawalOnY: y after enter signs and sends it.
func TestReviewSignsAMostlyFeeWithdrawalOnY(t *testing.T) {
	r, h, now := mostlyFeeReview(t)
	screentest.Press(r, "enter")
	*now = now.Add(kit.ShownGuard)
	_, cmd := screentest.Press(r, "y")
	if cmd == nil {
		t.Fatalf("y did not sign:\n%s", ansi.Strip(r.View()))
	}
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("y gave %T, want the spinner and the send", batch)
	}
	if msg, ok := batch[1]().(executedMsg); !ok || msg.Err != nil {
		t.Fatalf("the send answered %+v", msg)
	}
	if h.withdraws != 1 {
		t.Fatalf("%d withdraw requests after y, want 1", h.withdraws)
	}
}

// TestReviewAsksAgainOnlyWhereItIsSeen (seen in tmux at 60x20): the second
// yes is offered and answered only while the review and its question are
// on screen whole; on a screen too small for both, y signs nothing, and
// taller again it does.
func TestReviewAsksAgainOnlyWhereItIsSeen(t *testing.T) {
	r, h, now := mostlyFeeReview(t)
	screentest.Press(r, "enter")
	*now = now.Add(kit.ShownGuard)
	r.SetSize(60, 12)
	if _, fits := r.fitted(); fits {
		t.Fatal("the review and its question fit 60x12")
	}
	if screentest.Offers(r.KeyMap(), "y") {
		t.Errorf("y is offered while the review is too small to read:\n%s", ansi.Strip(r.View()))
	}
	if _, cmd := screentest.Press(r, "y"); screentest.Acts(cmd) || h.withdraws != 0 {
		t.Fatal("y signed a review that is not on screen")
	}
	r.SetSize(120, 40)
	*now = now.Add(intent.PasteGap) // typed again, not pasted with the first
	if _, cmd := screentest.Press(r, "y"); cmd == nil {
		t.Fatalf("taller again, y did not sign:\n%s", ansi.Strip(r.View()))
	}
}

// TestReviewAsksAgainAtTheSmallestSize (seen in tmux): at 60x20 and 80x24
// the second question fits beside the review whole, in fewer words where
// the warning would take lines the review has not (the figures above
// say the loss), so y is offered and signs: the question took three
// lines, the review no longer fitted, and the screen said it was too small
// to review, a withdrawal mostly fee made at 60x20 by no key.
func TestReviewAsksAgainAtTheSmallestSize(t *testing.T) {
	for _, size := range [][2]int{{60, 18}, {80, 22}} {
		r, h, now := mostlyFeeReview(t)
		r.SetSize(size[0], size[1])
		screentest.Press(r, "enter")
		*now = now.Add(kit.ShownGuard)
		view := screentest.OneLine(ansi.Strip(r.View()))
		if _, fits := r.fitted(); !fits || !strings.Contains(view, "93.8%") || !strings.Contains(view, "Withdraw all the same? (y/n)") {
			t.Fatalf("%dx%d: the question does not fit:\n%s", size[0], size[1], ansi.Strip(r.View()))
		}
		screentest.RequireNamedKeysAct(t, "asked", r.View(), func(k string) bool { return screentest.Offers(r.KeyMap(), k) })
		if _, cmd := screentest.Press(r, "y"); cmd == nil || !r.gate.Sending || h.withdraws != 0 {
			t.Fatalf("%dx%d: y did not sign:\n%s", size[0], size[1], ansi.Strip(r.View()))
		}
	}
}

// TestReviewAsksAgainBeforePreparingAMostlyFeeWithdrawal: o, which
// prepares the Transfer for signing elsewhere, asks the same question.
func TestReviewAsksAgainBeforePreparingAMostlyFeeWithdrawal(t *testing.T) {
	r, _, now := mostlyFeeReview(t)
	r.app.Target.Demo = nil // a configured environment: o is offered
	screentest.Press(r, "o")
	*now = now.Add(kit.ShownGuard)
	if r.gate.Offline.Preparing || !strings.Contains(ansi.Strip(r.View()), "(y/n)") {
		t.Fatalf("o prepared without asking again:\n%s", ansi.Strip(r.View()))
	}
	_, cmd := screentest.Press(r, "y")
	screentest.Drive(r, cmd)
	if !r.gate.Offline.Done() {
		t.Fatalf("y did not prepare: %v\n%s", r.err, ansi.Strip(r.View()))
	}
}

// TestQuoteWarnsOfFees: the quote screen warns of a loss above 5% of the
// amount, and says of one above half that the review asks twice.
func TestQuoteWarnsOfFees(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	d := decimal.RequireFromString
	for _, tc := range []struct {
		pay, receive string
		want         []string
	}{
		{"1.6", "0.1", []string{"1.5 USDT, 93.8% of the amount", "Most of this withdrawal goes to fees: you lose 1.5 USDT of the 1.6 USDT you pay (93.8%). The review asks you to confirm it a second time."}},
		{"25", "23.5", []string{"1.5 USDT, 6% of the amount", "More than 5% of the amount goes to fees: you lose 1.5 USDT of the 25 USDT you pay (6%)."}},
		{"100", "98.5", nil},
	} {
		w := withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum, Amount: d(tc.pay)}
		q := fixedQuote(*now, "1.5")
		q.PayAmount, q.ReceiveAmount = d(tc.pay), d(tc.receive)
		view := screentest.OneLine(ansi.Strip(pricedQuoteScreen(app, w, q, 0).View()))
		for _, want := range tc.want {
			if !strings.Contains(view, want) {
				t.Errorf("%s: the quote lacks %q:\n%s", tc.pay, want, view)
			}
		}
		if tc.want == nil && strings.Contains(view, "goes to fees") {
			t.Errorf("%s: a 1.5%% loss warned of:\n%s", tc.pay, view)
		}
	}
}

// TestReviewHoldsKeysOnceTheBridgeCheckLands: the bridge funding address
// and the journal's repeats are checked after the review shows, and what
// they say (the bridge's trust, "this one pays again") is part of what
// enter signs; a check that lands after the first guard, or late in
// it, holds keys for a whole kit.ShownGuard from then, so a held enter never
// signs a review whose last lines the user has not seen.
func TestReviewHoldsKeysOnceTheBridgeCheckLands(t *testing.T) {
	for name, landing := range map[string]time.Duration{
		"after the first guard":   2 * kit.ShownGuard, // a slow journal
		"late in the first guard": kit.ShownGuard - 10*time.Millisecond,
	} {
		t.Run(name, func(t *testing.T) {
			r, h, now := shownReview(t)
			*now = now.Add(landing)
			r.Update(r.checkBridge()())
			*now = now.Add(10 * time.Millisecond) // the first guard is over
			if screentest.Press(r, "enter"); r.gate.Sending || h.withdraws != 0 {
				t.Fatal("an enter 10ms after the bridge check landed signed")
			}
			*now = now.Add(kit.ShownGuard)
			if screentest.Press(r, "enter"); !r.gate.Sending {
				t.Fatalf("enter once the whole review showed did not sign:\n%s", ansi.Strip(r.View()))
			}
		})
	}
}

// shownReview is a review of a sandbox quote as it shows, its key found
// and its bridge check not yet landed.
func shownReview(t testing.TB) (*reviewScreen, *hostileSandbox, *time.Time) {
	t.Helper()
	app, h, now := hostileApp(t, true)
	w, q := sandboxQuote(t, app)
	r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
	r.SetSize(120, 40)
	r.Init()
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	return r, h, now
}

// TestReviewOffersNoKeyWhileHeld: while the guard holds keys the footer
// offers none of the review's (the guard swallows them: a key hint is a
// promise), and once it is over enter and r are offered again.
func TestReviewOffersNoKeyWhileHeld(t *testing.T) {
	r, _, now := shownReview(t)
	r.Update(r.checkBridge()())
	if km := r.KeyMap().ShortHelp(); len(km) != 0 {
		t.Fatalf("the held review offers %v", km)
	}
	*now = now.Add(kit.ShownGuard)
	if !screentest.Offers(r.KeyMap(), "enter") || !screentest.Offers(r.KeyMap(), "r") {
		t.Fatalf("once held long enough the review offers %v", r.KeyMap().ShortHelp())
	}
}

// TestReviewTakesOnlyItsOwnChecks: the checks that guard the send are this
// visit's: an answer asked by another review (a quote given up for a new
// one) or by this review's earlier visit (a screen came over it) is not
// taken, so enter signs only once its own has landed.
func TestReviewTakesOnlyItsOwnChecks(t *testing.T) {
	other, _, _ := shownReview(t)
	r, h, now := shownReview(t)
	earlier := r.checkBridge()
	r.Resume()
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo})) // this visit's key
	for name, stale := range map[string]tea.Msg{"another review's": other.checkBridge()(), "an earlier visit's": earlier()} {
		r.Update(stale)
		*now = now.Add(2 * kit.KeyGuard)
		if screentest.Press(r, "enter"); r.gate.Sending || h.withdraws != 0 || r.bridge != nil {
			t.Fatalf("%s check was taken, and enter signed or could", name)
		}
	}
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard)
	if screentest.Press(r, "enter"); !r.gate.Sending {
		t.Fatalf("enter once its own check landed did not sign:\n%s", ansi.Strip(r.View()))
	}
}

// TestReviewTakesOnlyItsOwnKey: which key signs is this visit's answer
// too: a key search asked by another review (a quote given up for a new
// one) or by this review's earlier visit is not taken, so the review
// shows no key and enter signs nothing until its own search lands.
func TestReviewTakesOnlyItsOwnKey(t *testing.T) {
	other, _, _ := shownReview(t)
	app, h, now := hostileApp(t, true)
	w, q := sandboxQuote(t, app)
	r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
	r.SetSize(120, 40)
	r.Init()
	earlier := keyFound(r, signer.Found{Place: signer.KeyDemo})
	r.Resume()
	r.Update(r.checkBridge()())
	for name, stale := range map[string]tea.Msg{"another review's": keyFound(other, signer.Found{Place: signer.KeyDemo}), "an earlier visit's": earlier} {
		r.Update(stale)
		*now = now.Add(2 * kit.KeyGuard)
		if screentest.Press(r, "enter"); r.gate.Sending || h.withdraws != 0 || r.gate.Key.Found {
			t.Fatalf("%s key search was taken, and enter signed or could", name)
		}
	}
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	*now = now.Add(kit.ShownGuard)
	if screentest.Press(r, "enter"); !r.gate.Sending {
		t.Fatalf("enter once its own key search landed did not sign:\n%s", ansi.Strip(r.View()))
	}
}

// TestReviewResumedForgetsItsKey: a review come back to (the bridge
// confirmation was on top) looks for its key again, and the key its
// earlier visit found signs nothing: enter waits for this visit's answer.
func TestReviewResumedForgetsItsKey(t *testing.T) {
	r, h, now := shownReview(t)
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard)
	r.Resume()
	r.Update(r.checkBridge()())
	*now = now.Add(2 * kit.KeyGuard)
	if screentest.Press(r, "enter"); r.gate.Sending || h.withdraws != 0 || r.gate.Key.Found {
		t.Fatal("the key the earlier visit found was kept, and enter signed or could")
	}
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	*now = now.Add(kit.ShownGuard)
	if screentest.Press(r, "enter"); !r.gate.Sending {
		t.Fatalf("enter once this visit's key search landed did not sign:\n%s", ansi.Strip(r.View()))
	}
}
