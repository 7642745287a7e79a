package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/service/sandbox"
	"svcwallet/tui"
)

// quits reports whether running cmd (and what it leads to) quits.
func quits(cmd tea.Cmd) bool {
	for _, m := range runAll(cmd) {
		if _, ok := m.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// typeAndPasteUnderRoot types "q?" and pastes "q-pasted" into first under
// the root and checks that nothing quit or opened help and that both reached
// the screen's field.
func typeAndPasteUnderRoot(t *testing.T, name string, app *App, first tui.Screen) {
	t.Helper()
	root := tui.New(first, tui.Options{Theme: "dark", Common: app.Common})
	for _, m := range runAll(root.Init()) {
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
	r := newStRig(t)
	typeAndPasteUnderRoot(t, "lookup", r.app, NewLookup(r.app))
	c := newConsole(t, 120, 40, consoleOpts{})
	typeAndPasteUnderRoot(t, "login", c.app, NewLogin(c.app))
	app, _ := wdApp(t)
	typeAndPasteUnderRoot(t, "destination", app, NewDestination(app, Withdrawal{TokenIn: "USDT", TokenOut: "USDT", Route: arbitrum}))
}

// TestBuilderTypingAndPastingNeverQuit: the same on the builder form, which
// needs a session.
func TestBuilderTypingAndPastingNeverQuit(t *testing.T) {
	r := newBldRig(t, 120, 40)
	r.openForm()
	for _, msg := range []tea.Msg{tea.KeyPressMsg{Code: 'q', Text: "q"}, tea.KeyPressMsg{Code: '?', Text: "?"}, tea.PasteMsg{Content: "q-pasted"}} {
		if _, cmd := r.root.Update(msg); quits(cmd) {
			t.Fatalf("builder: %v quit the console", msg)
		}
	}
	if v := r.plain(); !strings.Contains(v, "q?q-pasted") {
		t.Fatalf("builder: typed and pasted text not in the field:\n%s", v)
	}
}

// TestLookupKeepsFocus: after a lookup the field keeps focus, a q typed then
// starts the next id instead of quitting, and enter looks that id up; a
// pasted id replaces the one looked up.
func TestLookupKeepsFocus(t *testing.T) {
	r := newStRig(t)
	l := NewLookup(r.app)
	root := tui.New(l, tui.Options{Theme: "dark", Common: r.app.Common})
	root.Init()
	root.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	first := r.executed(sandbox.DestCompleted, "10")
	root.Update(tea.PasteMsg{Content: first})
	_, cmd := root.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	timed(l.child)
	for _, m := range runAll(cmd) {
		root.Update(m)
	}
	if v := ansi.Strip(root.View().Content); !strings.Contains(v, "SUBMITTED") {
		t.Fatalf("pasted id not looked up:\n%s", v)
	}
	if !l.Inputting() {
		t.Fatal("the field lost focus after a lookup")
	}
	second := r.executed(sandbox.DestCompleted, "11")
	for _, c := range second {
		if _, cmd := root.Update(tea.KeyPressMsg{Code: c, Text: string(c)}); quits(cmd) {
			t.Fatalf("typing %q after a lookup quit the console", c)
		}
	}
	if got := l.input.Value(); got != second {
		t.Fatalf("field holds %q, want the second id %q", got, second)
	}
	root.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if l.child == nil || l.child.quoteID != second {
		t.Fatalf("enter did not look up the second id")
	}
	root.Update(tea.PasteMsg{Content: first})
	if got := l.input.Value(); got != first {
		t.Fatalf("paste after a lookup left %q, want %q", got, first)
	}
}
