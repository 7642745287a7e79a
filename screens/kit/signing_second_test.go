package kit_test

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/screens/screentest"
)

// TestSecondQuestionActsOnlyOnItsYes: the key that asks acts at once when
// the rule wants no second yes; when it does, nothing acts and keys are
// held; a y acts only once seen, after its answer is recorded; n withdraws
// the question without acting.
func TestSecondQuestionActsOnlyOnItsYes(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	g := kit.NewReviewGate(app, common.Address{}, func(bool) kit.Bindings { return nil })
	var q kit.SecondQuestion
	yes, no := key.NewBinding(key.WithKeys("y")), key.NewBinding(key.WithKeys("n"))
	acted, answered, answeredWhenActed, needed := 0, 0, 0, false
	ask := q.Asking(&g, func() bool { return needed }, func() tea.Cmd { acted, answeredWhenActed = acted+1, answered; return nil })
	press := func(k string, seen bool) bool {
		_, ok := q.Bindings(q.Pending(), seen, yes, no, func() { answered++ }).Handle(screentest.Key(k))
		return ok
	}
	if ask(); acted != 1 || q.Pending() {
		t.Fatalf("no second yes wanted: acted %d, asked %v", acted, q.Pending())
	}
	needed = true
	if ask(); acted != 1 || !q.Pending() || !g.Guarded() {
		t.Fatalf("a second yes wanted: acted %d, asked %v, keys held %v", acted, q.Pending(), g.Guarded())
	}
	if press("y", false) || acted != 1 || answered != 0 {
		t.Fatalf("y unseen: acted %d, answered %d", acted, answered)
	}
	if !press("n", true) || acted != 1 || q.Pending() {
		t.Fatalf("n: acted %d, asked %v", acted, q.Pending())
	}
	if press("y", true) || acted != 1 {
		t.Fatalf("y after n: acted %d", acted)
	}
	ask()
	if !press("y", true) || acted != 2 || answered != 1 || answeredWhenActed != 1 || q.Pending() {
		t.Fatalf("y seen: acted %d, answered %d (%d when it acted), asked %v", acted, answered, answeredWhenActed, q.Pending())
	}
}

// TestGateSaysADroppedKeyActsOnlyWhereItDoes: a review's prompt, and its
// brief words beside a passphrase field, say a key its guard dropped was
// not taken only when the review's keys (the guard aside) or esc,
// going back, take it; another is said to be no key of the review.
func TestGateSaysADroppedKeyActsOnlyWhereItDoes(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	g := kit.NewReviewGate(app, common.Address{}, func(bool) kit.Bindings {
		return kit.Bindings{{Key: key.NewBinding(key.WithKeys("n")), On: true, Do: func() tea.Cmd { return nil }}}
	})
	g.Guard()
	for _, c := range []struct{ k, prompt, brief string }{
		{"n", kit.NotTaken("n"), "n not taken; "}, {"x", kit.NotAKey("x"), "x does nothing here; "},
		{"esc", kit.NotTaken("esc"), "esc not taken; "}} {
		g.Update(screentest.Key(c.k))
		if p := screentest.OneLine(g.Prompt("", "")); !strings.Contains(p, c.prompt+"read the message above") {
			t.Errorf("%s dropped: the prompt says %q, want %q", c.k, p, c.prompt)
		}
		if b := screentest.OneLine(g.BriefPrompt("", "")); !strings.HasPrefix(b, c.brief+"keys are enabled in") {
			t.Errorf("%s dropped: the brief prompt says %q, want %q", c.k, b, c.brief)
		}
	}
}

// TestGateSaysWhatADroppedKeyDoesOnceEnabled: a key that acts only on a
// review shown whole is said not taken where the review, as it reads once
// keys are enabled, fits (Fitted), and to do nothing where it does not;
// the words are drawn after that fit, never asking their own.
func TestGateSaysWhatADroppedKeyDoesOnceEnabled(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	g := kit.NewReviewGate(app, common.Address{}, func(whole bool) kit.Bindings {
		return kit.Bindings{{Key: key.NewBinding(key.WithKeys("enter")), On: whole, Do: func() tea.Cmd { return nil }}}
	})
	render := func(int) string { return "the message\nits digest\n" + g.Prompt("", "Press enter to sign.") }
	g.Guard()
	g.Update(screentest.Key("enter"))
	for _, c := range []struct {
		h    int
		said string
	}{{3, kit.NotTaken("enter")}, {2, kit.NotAKey("enter")}, {3, kit.NotTaken("enter")}} {
		if view, _ := g.Fitted(1, c.h, render); !strings.Contains(view, c.said) {
			t.Errorf("%d rows for a review of 3: want %q:\n%s", c.h, c.said, view)
		}
	}
}

// TestDroppedKeyWordsNeverMeasureThemselves: the review's fit once keys
// are enabled is measured without the hold's words: words that wrap to
// more rows than the prompt they stand for would make a review that fits
// once enabled read as too small, and an enter that signs then be said to
// do nothing.
func TestDroppedKeyWordsNeverMeasureThemselves(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	g := kit.NewReviewGate(app, common.Address{}, func(whole bool) kit.Bindings {
		return kit.Bindings{{Key: key.NewBinding(key.WithKeys("enter")), On: whole, Do: func() tea.Cmd { return nil }}}
	})
	render := func(int) string {
		return "the message\nits digest\n" + layout.WrapTo(g.Prompt("", "Press enter to sign."), 24)
	}
	g.Guard()
	g.Update(screentest.Key("enter"))
	if view, _ := g.Fitted(1, 3, render); !strings.Contains(strings.ReplaceAll(view, "\n", " "), "enter was not taken") {
		t.Errorf("a review of 3 rows once enabled, in 3: want enter said not taken:\n%s", view)
	}
}
