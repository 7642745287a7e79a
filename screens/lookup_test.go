package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/tui"
)

// lookUp types id into the lookup (after / when a status is shown) and
// presses enter, running what follows; the status's timer is recorded, not
// started.
func lookUp(l *Lookup, id string) {
	if !l.Inputting() {
		l.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
	}
	for _, c := range id {
		l.Update(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	_, cmd := l.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if l.child != nil {
		timed(l.child)
	}
	drive(l, cmd)
}

// TestLookup: an empty id is refused without a request; an unknown id and
// another account's withdrawal get the same 404 explanation; the account's
// own withdrawal is followed.
func TestLookup(t *testing.T) {
	r := newStRig(t)
	l := NewLookup(r.app)
	l.SetSize(100, 40)
	l.Init()

	lookUp(l, "   ")
	if v := ansi.Strip(l.View()); !strings.Contains(v, "Type a quote id first") || r.statusCalls.Load() != 0 {
		t.Fatalf("empty id: %d requests, view:\n%s", r.statusCalls.Load(), v)
	}

	const unknown = "q-doesnotexist"
	lookUp(l, unknown)
	explained := func(id string) string {
		return "Not found: no withdrawal with quote id " + id + " on this account; it is unknown, or it belongs to another account (the service does not say which)"
	}
	if v := oneLine(l.View()); !strings.Contains(v, explained(unknown)) || !strings.Contains(v, "Polling stopped") {
		t.Fatalf("unknown id not explained:\n%s", ansi.Strip(l.View()))
	}

	// Another account's withdrawal, which that account itself can see.
	other := r.client(sandbox.NoChainAPIKey)
	req, _ := r.signed(other, sandbox.NoChainPrivateKey, sandbox.DestCompleted, "10")
	if _, err := other.Withdraw(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	if w, err := other.WithdrawalStatus(t.Context(), req.QuoteID); err != nil || w.State != service.StateSubmitted {
		t.Fatalf("the owner cannot see it: %+v %v", w, err)
	}
	lookUp(l, req.QuoteID)
	if v := oneLine(l.View()); !strings.Contains(v, explained(req.QuoteID)) {
		t.Fatalf("another account's withdrawal not explained as unknown:\n%s", ansi.Strip(l.View()))
	}

	own := r.executed(sandbox.DestCompleted, "10")
	lookUp(l, own)
	if v := ansi.Strip(l.View()); !strings.Contains(v, "▶ SUBMITTED") || strings.Contains(v, "Not found") {
		t.Fatalf("own withdrawal not followed:\n%s", v)
	}
	if got := r.journalStates(own); len(got) != 0 {
		t.Errorf("the lookup journaled %v: it follows, it does not own", got)
	}
}

// TestLookupUnderRoot: while the id is typed, q is text and not quit.
func TestLookupUnderRoot(t *testing.T) {
	r := newStRig(t)
	root := tui.New(NewLookup(r.app), tui.Options{Theme: "dark", Common: r.app.Common})
	root.Init()
	root.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	_, cmd := root.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	for _, m := range runAll(cmd) {
		if _, quit := m.(tea.QuitMsg); quit {
			t.Fatal("typing q quit the console")
		}
	}
	root.Update(tea.KeyPressMsg{Code: '-', Text: "-"})
	if v := ansi.Strip(root.View().Content); !strings.Contains(v, "Quote id      q-") {
		t.Fatalf("typed text not in the input:\n%s", v)
	}
}

// oneLine is the plain view with wrapped lines joined, to find a sentence.
func oneLine(view string) string {
	var parts []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.Join(parts, " ")
}

// TestLookupNewIDClearsOldResult: after a not-found, starting another id
// (with / or by typing into the focused input) drops the old result, and
// the heading agrees with the title.
func TestLookupNewIDClearsOldResult(t *testing.T) {
	r := newStRig(t)
	l := NewLookup(r.app)
	l.SetSize(100, 40)
	l.Init()
	lookUp(l, "q-doesnotexist")
	if v := ansi.Strip(l.View()); !strings.Contains(v, "Not found") {
		t.Fatalf("no not-found:\n%s", v)
	}
	if v := ansi.Strip(l.View()); !strings.Contains(v, l.Title()) || strings.Contains(v, "Support lookup") {
		t.Fatalf("heading does not match the title %q:\n%s", l.Title(), v)
	}
	for _, k := range l.KeyMap().ShortHelp() {
		if k.Help().Desc == "copy payout hash" {
			t.Fatal("copy offered for an unknown id")
		}
	}
	l.Update(tea.KeyPressMsg{Code: '/', Text: "/"})
	if v := ansi.Strip(l.View()); strings.Contains(v, "Not found") || strings.Contains(v, "Polling stopped") {
		t.Fatalf("old result still shown after /:\n%s", v)
	}
	l.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if v := ansi.Strip(l.View()); strings.Contains(v, "Not found") {
		t.Fatalf("old result shown while a new id is typed:\n%s", v)
	}
}
