package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/screens/kit"
	"svcwallet/screens/screentest"
	"svcwallet/service"
	"svcwallet/tui"
)

// quits reports whether running cmd (and what it leads to) quits.
func quits(cmd tea.Cmd) bool {
	for _, m := range screentest.RunAll(cmd) {
		if _, ok := m.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// typeAndPasteUnderRoot types "q?" and pastes "q-pasted" into first under
// the root and checks that nothing quit or opened help and that both reached
// the screen's field.
func typeAndPasteUnderRoot(t *testing.T, name string, app *kit.App, first tui.Screen) {
	t.Helper()
	root := tui.New(first, tui.Options{Theme: "dark", Common: app.Common})
	for _, m := range screentest.RunAll(root.Init()) {
		root.Update(m)
	}
	root.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if in, ok := first.(tui.Inputting); !ok || !in.Inputting() {
		t.Fatalf("%s: no text field has focus", name)
	}
	for _, k := range []tea.KeyPressMsg{{Code: 'q', Text: "q"}, {Code: '?', Text: "?"}} {
		if _, cmd := root.Update(k); quits(cmd) {
			t.Fatalf("%s: typing %q quit the console", name, k.Text)
		}
	}
	if _, cmd := root.Update(tea.PasteMsg{Content: "q-pasted"}); quits(cmd) {
		t.Fatalf("%s: pasting quit the console", name)
	}
	v := ansi.Strip(root.View().Content)
	if !strings.Contains(v, "q?q-pasted") && !strings.Contains(v, "••••") {
		t.Fatalf("%s: typed and pasted text not in the field:\n%s", name, v)
	}
	if strings.Contains(v, "ctrl+c quit") && strings.Contains(v, "? close help") {
		t.Fatalf("%s: ? opened the help:\n%s", name, v)
	}
}

// TestTypingAndPastingNeverQuit: on every screen with a text field, q and ?
// are text and a bracketed paste goes to the field.
func TestTypingAndPastingNeverQuit(t *testing.T) {
	r := screentest.NewStatusRig(t)
	typeAndPasteUnderRoot(t, "watch board", r.App, newBoard(r.App))
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
	typeAndPasteUnderRoot(t, "login", c.App, newLogin(c.App))
	app, _ := screentest.LoggedInApp(t)
	typeAndPasteUnderRoot(t, "destination", app, newDestination(app, service.WithdrawalChoice{TokenIn: "USDT", TokenOut: "USDT", Route: screentest.Arbitrum}))
}

// TestBuilderTypingAndPastingNeverQuit: the same on the builder form, which
// needs a session.
func TestBuilderTypingAndPastingNeverQuit(t *testing.T) {
	r := newBldRig(t, 120, 40)
	r.openForm()
	for _, msg := range []tea.Msg{tea.KeyPressMsg{Code: 'q', Text: "q"}, tea.KeyPressMsg{Code: '?', Text: "?"}, tea.PasteMsg{Content: "q-pasted"}} {
		if _, cmd := r.Root.Update(msg); quits(cmd) {
			t.Fatalf("builder: %v quit the console", msg)
		}
	}
	if v := r.Plain(); !strings.Contains(v, "q?q-pasted") {
		t.Fatalf("builder: typed and pasted text not in the field:\n%s", v)
	}
}

// TestFilterTakesPastes: while a list's filter is typed, a bracketed paste
// goes into it like typed keys (it used to be dropped).
func TestFilterTakesPastes(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	d, h, r, b := newDeposit(app), newHistory(app), newRoute(app), newBoard(app)
	for name, s := range map[string]struct {
		screen tui.Screen
		filter *kit.ListFilter
	}{"deposit": {d, &d.filter}, "history": {h, &h.filter}, "route": {r, &r.filter}, "board": {b, &b.filter}} {
		s.filter.Start()
		s.screen.Update(tea.PasteMsg{Content: "q-pasted"})
		if v := ansi.Strip(s.filter.View()); !strings.Contains(v, "q-pasted") {
			t.Errorf("%s: the paste is not in the filter: %q", name, v)
		}
	}
}
