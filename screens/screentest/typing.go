package screentest

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/tui"
)

// Quits reports whether running cmd (and what it leads to) quits.
func Quits(cmd tea.Cmd) bool {
	for _, m := range RunAll(cmd) {
		if _, ok := m.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// TypeAndPasteUnderRoot types "q?" and pastes "q-pasted" into first under
// the root and checks that nothing quit or opened help and that both reached
// the screen's field.
func TypeAndPasteUnderRoot(t *testing.T, name string, app *kit.App, first tui.Screen) {
	t.Helper()
	root := tui.New(first, tui.Options{Theme: "dark", Common: app.Common})
	for _, m := range RunAll(root.Init()) {
		root.Update(m)
	}
	root.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if in, ok := first.(tui.Inputting); !ok || !in.Inputting() {
		t.Fatalf("%s: no text field has focus", name)
	}
	for _, k := range []tea.KeyPressMsg{{Code: 'q', Text: "q"}, {Code: '?', Text: "?"}} {
		if _, cmd := root.Update(k); Quits(cmd) {
			t.Fatalf("%s: typing %q quit the console", name, k.Text)
		}
	}
	if _, cmd := root.Update(tea.PasteMsg{Content: "q-pasted"}); Quits(cmd) {
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

// FilterTakesPaste starts the filter of l, the list of s, pastes into s
// and checks that the paste went into the filter like typed keys.
func FilterTakesPaste[T any](t *testing.T, name string, s tui.Screen, l *kit.List[T]) {
	t.Helper()
	l.StartFilter()
	s.Update(tea.PasteMsg{Content: "q-pasted"})
	if v := ansi.Strip(l.FilterView()); !strings.Contains(v, "q-pasted") || l.Filter() != "q-pasted" {
		t.Errorf("%s: the paste is not in the filter: %q", name, v)
	}
}

// RequireEscClearsFilterFirst (issue 21 bug 5): on the list screen on top
// of root, above Home, esc while the filter is typed clears it and stays;
// so does esc on a filter kept with enter, and the footer names that esc;
// only an esc with no filter goes back. send hands root a message and
// delivers what follows; text narrows the list.
func RequireEscClearsFilterFirst(t *testing.T, root *tui.Model, send func(tea.Msg), text string) {
	t.Helper()
	frame := func() string { return ansi.Strip(root.View().Content) }
	title := func() string { bar, _, _ := strings.Cut(frame(), "\n"); return strings.Fields(bar)[1] }
	screen := title()
	typeText := func() {
		send(Key("/"))
		for _, r := range text {
			send(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
		if !strings.Contains(frame(), "/ "+text) {
			t.Fatalf("%s: the filter %q is not shown:\n%s", screen, text, frame())
		}
	}
	typeText()
	send(Key("esc"))
	if title() != screen || strings.Contains(frame(), "/ "+text) {
		t.Fatalf("%s: esc while the filter is typed did not clear it and stay:\n%s", screen, frame())
	}
	typeText()
	send(Key("enter"))
	if !strings.Contains(frame(), "esc clear filter") || strings.Contains(frame(), "esc back") {
		t.Errorf("%s: with a filter kept, the footer does not offer esc to clear it:\n%s", screen, frame())
	}
	send(Key("esc"))
	if title() != screen || strings.Contains(frame(), "/ "+text) || !strings.Contains(frame(), "esc back") {
		t.Fatalf("%s: esc on a kept filter did not clear it and stay:\n%s", screen, frame())
	}
	send(Key("esc"))
	if title() != "Home" {
		t.Fatalf("%s: esc with no filter did not go back:\n%s", screen, frame())
	}
}
