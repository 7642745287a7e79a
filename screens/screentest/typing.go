package screentest

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"svcwallet/screens/kit"
	"svcwallet/tui"
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

// FilterTakesPaste starts filter, the list filter of s, pastes into s and
// checks that the paste went into the filter like typed keys.
func FilterTakesPaste(t *testing.T, name string, s tui.Screen, filter *kit.ListFilter) {
	t.Helper()
	filter.Start()
	s.Update(tea.PasteMsg{Content: "q-pasted"})
	if v := ansi.Strip(filter.View()); !strings.Contains(v, "q-pasted") {
		t.Errorf("%s: the paste is not in the filter: %q", name, v)
	}
}
