package withdraw

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestReviewSaysADroppedKeyActsOnlyWhereItDoes: a key typed while the
// review holds its keys is said not taken (so it acts once they are
// enabled) only when it is one of the review's: enter signs, r gets a new
// quote, esc goes back; n, x and c (no bridge address changed) do nothing
// here and are said so.
func TestReviewSaysADroppedKeyActsOnlyWhereItDoes(t *testing.T) {
	r, _, _ := shownReview(t)
	r.Update(r.checkBridge()())
	press := func(k string) { screentest.Press(r, k) }
	screentest.RequireDroppedSaid(t, "the review", press, r.View,
		screentest.Dropped{Key: "n"}, screentest.Dropped{Key: "enter", Acts: true}, screentest.Dropped{Key: "x"},
		screentest.Dropped{Key: "r", Acts: true}, screentest.Dropped{Key: "c"}, screentest.Dropped{Key: "esc", Acts: true})
}

// TestReviewSaysAnEnterTypedWhileTheKeyIsSoughtActs: an enter typed while
// the review still looks for its key does nothing yet, but signs once the
// key is found and that hold is over: it is said not taken, never said to
// do nothing on the screen.
func TestReviewSaysAnEnterTypedWhileTheKeyIsSoughtActs(t *testing.T) {
	app, _, _ := hostileApp(t, true)
	w, q := sandboxQuote(t, app)
	r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
	r.SetSize(120, 40)
	r.Init()
	r.Update(r.checkBridge()())
	if r.gate.Key.Found {
		t.Fatal("the key was found before it was looked up")
	}
	press := func(k string) { screentest.Press(r, k) }
	screentest.RequireDroppedSaid(t, "the review looking for its key", press, r.View,
		screentest.Dropped{Key: "enter", Acts: true}, screentest.Dropped{Key: "x"})
}

// TestLossQuestionSaysADroppedKeyActsOnlyWhereItDoes: while the second
// question of a withdrawal that is mostly fee holds its keys, its y and n
// and esc (going back) are said not taken, and x and enter, which answer
// nothing, are said to do nothing on the screen.
func TestLossQuestionSaysADroppedKeyActsOnlyWhereItDoes(t *testing.T) {
	r, _, _ := mostlyFeeReview(t)
	if screentest.Press(r, "enter"); !r.askedLoss() {
		t.Fatal("enter did not ask the second question")
	}
	press := func(k string) { screentest.Press(r, k) }
	screentest.RequireDroppedSaid(t, "the loss question", press, r.View,
		screentest.Dropped{Key: "x"}, screentest.Dropped{Key: "n", Acts: true}, screentest.Dropped{Key: "enter"},
		screentest.Dropped{Key: "y", Acts: true}, screentest.Dropped{Key: "esc", Acts: true})
}

// TestBridgeConfirmSaysADroppedKeyActsOnlyWhereItDoes: while the changed
// bridge address holds its keys, Y (trust it) and esc are said not taken;
// y and n, which trust and refuse nothing there, are said to do nothing.
func TestBridgeConfirmSaysADroppedKeyActsOnlyWhereItDoes(t *testing.T) {
	app, _, now := hostileApp(t, false)
	s := newBridgeConfirm(app, withdrawal.BridgeChangedError{Env: app.Target.Env.Name, Expected: sandbox.BridgeFundingAddress,
		Seen: attackerBridge, Since: *now})
	s.SetSize(100, 30)
	s.Init()
	press := func(k string) { screentest.Press(s, k) }
	screentest.RequireDroppedSaid(t, "the bridge confirmation", press, s.View,
		screentest.Dropped{Key: "n"}, screentest.Dropped{Key: "Y", Acts: true}, screentest.Dropped{Key: "y"},
		screentest.Dropped{Key: "esc", Acts: true})
}

// TestReviewTooSmallSaysEnterDoesNothing: on a review too small to show
// whole (60x12), an enter typed while it holds its keys and looks for its
// key is said to do nothing, as it does there once the key is found (only
// a review shown whole signs); r and esc act and are said not taken. At
// 120x40 the same enter is said not taken (the test above).
func TestReviewTooSmallSaysEnterDoesNothing(t *testing.T) {
	app, _, _ := hostileApp(t, true)
	w, q := sandboxQuote(t, app)
	r := newReview(app, w, withdrawal.PricedQuote{Quote: q})
	r.SetSize(60, 12)
	r.Init()
	r.Update(r.checkBridge()())
	if _, whole := r.fitted(); whole || r.gate.Key.Found {
		t.Fatalf("the review is whole at 60x12 (%v), or its key found (%v)", whole, r.gate.Key.Found)
	}
	press := func(k string) { screentest.Press(r, k) }
	screentest.RequireDroppedSaid(t, "the review too small", press, r.View,
		screentest.Dropped{Key: "enter"}, screentest.Dropped{Key: "r", Acts: true}, screentest.Dropped{Key: "esc", Acts: true})
}

// TestReviewSaysAPasteActsWhereThePassphraseFieldTakesIt: ctrl+v typed
// while a keystore key's review holds its keys is said not taken: its
// passphrase field pastes with it once they are enabled. On a review
// with no field (the demo key's) it does nothing, and is said so.
func TestReviewSaysAPasteActsWhereThePassphraseFieldTakesIt(t *testing.T) {
	r, _, _ := shownReview(t)
	r.Update(r.checkBridge()())
	press := func(k string) { screentest.Press(r, k) }
	screentest.RequireDroppedSaid(t, "the demo key's review", press, r.View, screentest.Dropped{Key: "ctrl+v"})
	r.gate.Key.Find()
	r.Update(keyFound(r, keystoreKey))
	if !r.Inputting() {
		t.Fatal("the keystore key's passphrase field does not take keys")
	}
	screentest.RequireDroppedSaid(t, "the keystore key's review", press, r.View, screentest.Dropped{Key: "ctrl+v", Acts: true})
}
