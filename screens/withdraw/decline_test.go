package withdraw

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
)

// TestDeclineInTheHoldIsSaid: an n typed while the loss question holds
// its keys withdraws nothing and is said not taken (a key dropped unsaid
// left the person waiting on a question they had answered); once the
// hold is over a typed n withdraws it. A raw paste's n (with the key
// before it) declines nothing either, and the review says a paste
// answers nothing; esc in the hold is said too.
func TestDeclineInTheHoldIsSaid(t *testing.T) {
	r, _, now := mostlyFeeReview(t)
	tm := underRoot(r, now)
	tm.typed("enter", 0)
	tm.typed("n", 300*time.Millisecond)
	if !r.askedLoss() {
		t.Fatal("an n in the hold withdrew the question")
	}
	if v := screentest.OneLine(ansi.Strip(r.View())); !strings.Contains(v, kit.NotTaken("n")+"read the message above; keys are enabled in 2 s.") {
		t.Fatalf("an n in the hold is not said:\n%s", v)
	}
	tm.typed("esc", 300*time.Millisecond)
	if v := screentest.OneLine(ansi.Strip(r.View())); !r.askedLoss() || !strings.Contains(v, kit.NotTaken("esc")) {
		t.Fatalf("an esc in the hold: asked %v, says:\n%s", r.askedLoss(), v)
	}
	*now = now.Add(kit.ShownGuard)
	if v := ansi.Strip(r.View()); strings.Contains(v, "not taken") {
		t.Fatalf("once the hold is over it still says a key was not taken:\n%s", v)
	}
	tm.key("x", 0)
	tm.key("n", 20*time.Millisecond)
	tm.answer()
	if !r.askedLoss() || !strings.Contains(screentest.OneLine(r.View()), kit.PasteAnswersNothing) {
		t.Fatalf("a pasted n: asked %v, says:\n%s", r.askedLoss(), ansi.Strip(r.View()))
	}
	if tm.typed("n", kit.KeyGuard); r.askedLoss() {
		t.Fatalf("a typed n once the hold was over did not withdraw the question:\n%s", ansi.Strip(r.View()))
	}
}
