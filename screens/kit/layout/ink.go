package layout

import (
	"strings"
	"sync"

	"charm.land/lipgloss/v2"

	"github.com/svcwallet/svcwallet/theme"
	"github.com/svcwallet/svcwallet/tui"
)

// Ink is a text style reduced to the escape sequences around the text.
// lipgloss's Render measures and lays out its input on every call (about
// 4 µs for an address, most of a frame's cost when a list draws a hundred
// styled pieces); an ink is a concatenation. Only for one line of text in
// a style made of colours and attributes: no padding, width, border or
// underline (those lipgloss applies per character or per line).
type Ink struct{ open, close string }

// newInk learns the sequences by rendering one probe character.
func newInk(st lipgloss.Style) Ink {
	out := st.Render("x")
	i := strings.IndexByte(out, 'x')
	return Ink{open: out[:i], close: out[i+1:]}
}

// On draws s in the ink: the same bytes as the style's Render(s).
func (k Ink) On(s string) string { return k.open + s + k.close }

// inks are the theme's text styles that screens draw many times a frame.
type inks struct {
	Heading, Label, Value, Bold, Muted, Warning, Selected, Cursor Ink
}

// inkCache holds the inks of the two themes; theme.New is a pure function
// of the background, so they never change.
var inkCache [2]struct {
	once sync.Once
	inks inks
}

// InksFor returns the inks of c's current styles.
func InksFor(c *tui.Common) *inks {
	dark := c.Styles.IsDark
	e := &inkCache[0]
	if dark {
		e = &inkCache[1]
	}
	e.once.Do(func() {
		st := theme.New(dark)
		e.inks = inks{
			Heading: newInk(st.Heading), Label: newInk(st.Label), Value: newInk(st.Value),
			Bold: newInk(st.Value.Bold(true)), Muted: newInk(st.Muted), Warning: newInk(st.Warning),
			Selected: newInk(st.Selected), Cursor: newInk(st.Cursor),
		}
	})
	return &e.inks
}
