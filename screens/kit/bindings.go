package kit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Binding is one key of a screen, declared once: the keys and help the
// footer shows, whether it acts now, and what it does. A screen lists its
// bindings in one place; its footer (KeyMap) and its key handling both read
// that list, so a footer can never offer a key that does nothing. A key
// that is off acts only through its Off answer (saying why); a binding
// without help acts unlisted, named by another's help (↑/↓ for j, k, g, G).
type Binding struct {
	Key key.Binding
	On  bool
	Do  func() tea.Cmd
	// Off, when set, answers the key while it does not act (a toast saying
	// why); the footer still does not offer it.
	Off func() tea.Cmd
}

// Bindings are a screen's keys in the order the footer shows them.
type Bindings []Binding

// KeyMap is the footer and full help (bubbles help.KeyMap): the bindings
// that act now and have help (one without is named by another's, as ↑/↓
// names both).
type keyMap []key.Binding

func (bs Bindings) KeyMap() keyMap {
	km := make(keyMap, 0, len(bs))
	for _, b := range bs {
		if b.On && b.Key.Help().Key != "" {
			km = append(km, b.Key)
		}
	}
	return km
}

func (k keyMap) ShortHelp() []key.Binding { return k }

func (k keyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k} }

// Handle runs the first binding that acts now and matches k; ok is false
// when none does, and the key is the screen's to handle otherwise (text
// typed into a field).
func (bs Bindings) Handle(k tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	b, ok := bs.taker(k)
	switch {
	case !ok:
		return nil, false
	case b.On:
		return b.Do(), true
	}
	return b.Off(), true
}

// taker is the first binding that matches k and acts now or says why it
// is off: the one rule of what Handle runs and Takes reports.
func (bs Bindings) taker(k tea.KeyPressMsg) (Binding, bool) {
	for _, b := range bs {
		if key.Matches(k, b.Key) && (b.On || b.Off != nil) {
			return b, true
		}
	}
	return Binding{}, false
}

// Takes reports whether k acts on a screen whose keys are bs (its
// bindings with any hold aside): one matches it and acts, or says why it
// is off (Off); esc also where back (the root goes back with it, from a
// screen it pushed). A hold names a key it dropped as acting later only
// then (KeyHold.DroppedSaid).
func (bs Bindings) Takes(k tea.KeyPressMsg, back bool) bool {
	if back && k.String() == "esc" {
		return true
	}
	_, ok := bs.taker(k)
	return ok
}

// ListMoves are the list keys (ListKeys) for a cursor over a menu of n
// rows, acting while it has rows; help names the movement in the footer
// ("move"). A list of data is a List, which also pages and filters.
func ListMoves(cursor *int, n int, help string) Bindings {
	up, first := ListKeys.Up, ListKeys.First
	up.SetHelp(up.Help().Key, help)
	first.SetHelp("", "") // a menu fits: ↑/↓ names the jumps too
	some := n > 0
	return Bindings{
		{Key: up, On: some, Do: func() tea.Cmd { *cursor = max(*cursor-1, 0); return nil }},
		{Key: ListKeys.Down, On: some, Do: func() tea.Cmd { *cursor = min(*cursor+1, n-1); return nil }},
		{Key: first, On: some, Do: func() tea.Cmd { *cursor = 0; return nil }},
		{Key: ListKeys.Last, On: some, Do: func() tea.Cmd { *cursor = n - 1; return nil }},
	}
}
