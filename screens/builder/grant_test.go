package builder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// grantReview is a review of an API key allowed perms, its key found and
// its guard over.
func grantReview(t *testing.T, perms string) (*bldRig, *builderReviewScreen) {
	t.Helper()
	r := newBldRig(t, 120, 40)
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		Label: "bot", KeySigner: sandbox.NoChainAddress, Permissions: perms})
	if err != nil {
		t.Fatal(err)
	}
	rv := newBuilderReview(r.App, a, bldNonce)
	rv.SetSize(120, 36)
	rv.Init()
	rv.Update(rv.gate.Key.Find()())
	r.clock.Advance(kit.ShownGuard)
	return r, rv
}

// TestFundsGrantAsksAgain: enter on a key that may move funds
// (builder.AcceptsGrant) signs nothing but asks again, saying what it
// grants; the question holds keys from when it shows (a y typed with the
// enter answers nothing), offers y and n, not enter; n stops it, and only
// a y typed once it is read signs. Trade alone signs on enter.
func TestFundsGrantAsksAgain(t *testing.T) {
	r, rv := grantReview(t, "Withdraw&Trade")
	if screentest.Press(rv, "enter"); rv.gate.Sending || !rv.askedGrant() {
		t.Fatalf("enter on a key that may withdraw: sending %v, asked %v", rv.gate.Sending, rv.askedGrant())
	}
	if screentest.Press(rv, "y"); rv.gate.Sending {
		t.Fatal("a y typed with the enter granted the key")
	}
	r.clock.Advance(kit.ShownGuard + kit.KeyGuard)
	v := screentest.OneLine(rv.View())
	if !strings.Contains(v, "The builder's API key gets Withdraw: the builder may move or administer your account's funds. Grant it all the same? (y/n)") {
		t.Fatalf("the question is not on the review:\n%s", ansi.Strip(rv.View()))
	}
	if !screentest.Offers(rv.KeyMap(), "y") || !screentest.Offers(rv.KeyMap(), "n") || screentest.Offers(rv.KeyMap(), "enter") {
		t.Fatalf("the question offers %v", rv.KeyMap().ShortHelp())
	}
	if screentest.Press(rv, "n"); rv.askedGrant() || rv.gate.Sending {
		t.Fatal("n did not stop the question")
	}
	r.clock.Advance(kit.KeyGuard)
	if screentest.Press(rv, "enter"); !rv.askedGrant() {
		t.Fatal("enter after n did not ask again")
	}
	r.clock.Advance(kit.ShownGuard)
	if screentest.Press(rv, "y"); !rv.gate.Sending {
		t.Fatalf("a typed y did not sign:\n%s", ansi.Strip(rv.View()))
	}

	_, rv = grantReview(t, "Trade")
	if screentest.Press(rv, "enter"); !rv.gate.Sending || rv.askedGrant() {
		t.Fatal("enter on a key allowed Trade alone did not sign")
	}
}

// TestPastedYNeverGrants: "yy" pasted unbracketed (the second y before the
// terminal's answer to the first) answers nothing and the review says a
// paste answers nothing; a y typed after it grants.
func TestPastedYNeverGrants(t *testing.T) {
	r, rv := grantReview(t, "Admin&Trade")
	screentest.Press(rv, "enter")
	r.clock.Advance(kit.ShownGuard)
	_, settle := rv.Update(screentest.Key("y"))
	tag, _, ok := screentest.Settling(settle)
	if !ok {
		t.Fatal("y asks the terminal nothing")
	}
	rv.Update(screentest.Key("y"))
	rv.Update(tui.SettledMsg{Tag: tag})
	if rv.gate.Sending {
		t.Fatal("yy pasted granted the key")
	}
	if !strings.Contains(screentest.OneLine(rv.View()), kit.PasteAnswersNothing) {
		t.Errorf("after the paste the review does not say a paste answers nothing:\n%s", ansi.Strip(rv.View()))
	}
	r.clock.Advance(kit.KeyGuard)
	if screentest.Press(rv, "y"); !rv.gate.Sending {
		t.Fatalf("a typed y after the paste did not grant:\n%s", ansi.Strip(rv.View()))
	}
}

// TestFundsGrantAskedAt60x20: at 60x20 the review of a key that may move
// funds fits (its warning in one line, builder.Auth.TightWarnings), and
// its second question takes the line of the first: asked, and answered,
// there.
func TestFundsGrantAskedAt60x20(t *testing.T) {
	r := newBldRig(t, 60, 20)
	timers := screentest.RecordTimers(r.App)
	r.openForm()
	r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
	r.keySection("bot", sandbox.NoChainAddress)
	r.Press("1") // Admin, besides Trade
	r.toReview()
	r.UntilShows("! The key also gets Admin; a builder needs only Trade.", "Press enter to sign")
	r.Press("enter")
	r.UntilShows("keys are enabled in 2 s") // the question is asked, its keys held
	r.clock.Advance(kit.ShownGuard)
	r.UntilShowsFiring(timers, "(y/n)", "y yes, grant it")
	r.Press("y")
	r.UntilShows("Builder authorized")
}

// TestFundsGrantAskedBeforePreparing: o on the review of a key that may
// move funds prepares nothing but asks the same question; only its y
// prepares the authorization for offline signing.
func TestFundsGrantAskedBeforePreparing(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Target.Demo = nil // a configured environment: o is offered
	s, _ := app.Client().Session()
	a, err := builder.Check(builder.Input{Main: s.FundingAccountAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05",
		Label: "bot", KeySigner: sandbox.NoChainAddress, Permissions: "Trade&VaultInvestor"})
	if err != nil {
		t.Fatal(err)
	}
	r := newBuilderReview(app, a, bldNonce)
	r.SetSize(120, 40)
	r.Init()
	r.Update(keyFound(r, signer.Found{Place: signer.KeyDemo}))
	*now = now.Add(kit.ShownGuard)
	if screentest.Press(r, "o"); r.gate.Offline.Preparing || !r.askedGrant() {
		t.Fatalf("o on a key that may invest the funds: preparing %v, asked %v", r.gate.Offline.Preparing, r.askedGrant())
	}
	*now = now.Add(kit.ShownGuard)
	if screentest.Offers(r.KeyMap(), "o") {
		t.Fatal("o is offered while the question is asked")
	}
	if screentest.Press(r, "y"); !r.gate.Offline.Preparing {
		t.Fatalf("y did not prepare:\n%s", ansi.Strip(r.View()))
	}
}

// TestFundsGrantNotAnsweredUnseen: y answers the question only while the
// review and the question are on screen whole, as enter signs only then;
// in a window too small for them it grants nothing.
func TestFundsGrantNotAnsweredUnseen(t *testing.T) {
	r, rv := grantReview(t, "Withdraw&Trade")
	screentest.Press(rv, "enter")
	r.clock.Advance(kit.ShownGuard + kit.KeyGuard)
	rv.SetSize(60, 8)
	r.clock.Advance(kit.ShownGuard + kit.KeyGuard)
	if screentest.Press(rv, "y"); rv.gate.Sending || !rv.askedGrant() {
		t.Fatalf("y in a window too small for the question: sending %v, asked %v", rv.gate.Sending, rv.askedGrant())
	}
	rv.SetSize(120, 36)
	r.clock.Advance(kit.ShownGuard + kit.KeyGuard)
	if screentest.Press(rv, "y"); !rv.gate.Sending {
		t.Fatalf("y with the question seen again did not sign:\n%s", ansi.Strip(rv.View()))
	}
}
