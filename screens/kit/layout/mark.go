package layout

import "github.com/svcwallet/svcwallet/tui"

// Choice, focus and selection show by a character, never by colour or
// reverse video alone: under TERM=dumb the terminal shows neither, and the
// character is all that is left. Colour only makes it stand out.

// Choice draws one option of a choice among several: "(•) label" for the
// chosen one, "( ) label" for the others.
func Choice(c *tui.Common, label string, chosen bool) string {
	k := InksFor(c)
	if chosen {
		return k.Cursor.On("(•)") + " " + k.Bold.On(label)
	}
	return k.Muted.On("( ) " + label)
}

// Focus is the gutter before a row or field: "› " on the one with the
// focus, blank on the others.
func Focus(c *tui.Common, focused bool) string {
	if focused {
		return InksFor(c).Cursor.On("› ")
	}
	return "  "
}
