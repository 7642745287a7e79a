package status

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
)

// A status screen taller than the terminal even in its shortest layout
// (ids and a note as long as the service may send them, at 60x20) scrolls
// rather than cut its last lines: ↓ and ↑ move it a line, and its last
// line says how many lines are hidden below and above.

var scrollKeys = struct{ Down, Up key.Binding }{
	Down: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "more below")),
	Up:   key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "back up")),
}

// window is which of lines the screen shows: from top, shown many, with
// the rest hidden below; all of them when they fit. While a quote id is
// typed the field, at the end, stays in view.
func (s *statusScreen) window(lines int) (top, shown int) {
	if s.ht <= 1 || lines <= s.ht {
		return 0, lines
	}
	shown = s.ht - 1 // the last line says what is hidden
	top = min(max(s.top, 0), lines-shown)
	if s.look.on {
		top = lines - shown
	}
	return top, shown
}

// scrolled is v within the screen's height (window), its last line saying
// what is hidden and the key that shows it.
func (s *statusScreen) scrolled(v string) string {
	lines := strings.Split(strings.TrimSuffix(v, "\n"), "\n")
	top, shown := s.window(len(lines))
	if shown == len(lines) {
		return v
	}
	// While the next id is typed its field has the keys: ↑ is not named.
	down, up := "↓ ", "↑ "
	if s.look.on {
		down, up = "", ""
	}
	var said []string
	if below := len(lines) - top - shown; below > 0 {
		said = append(said, down+strconv.Itoa(below)+" more "+kit.Plural(below, "line", "lines")+" below")
	}
	if top > 0 {
		said = append(said, up+strconv.Itoa(top)+" "+kit.Plural(top, "line", "lines")+" above")
	}
	return strings.Join(lines[top:top+shown], "\n") + "\n" + s.app.Common.Styles.Muted.Render(strings.Join(said, " · ")) + "\n"
}

// hidden is how many lines the screen hides above and below.
func (s *statusScreen) hidden() (above, below int) {
	lines := strings.Count(strings.TrimSuffix(s.full(), "\n"), "\n") + 1
	top, shown := s.window(lines)
	return top, lines - top - shown
}

// scrollBindings move the screen a line while there is more that way.
func (s *statusScreen) scrollBindings() kit.Bindings {
	above, below := s.hidden()
	return kit.Bindings{
		{Key: scrollKeys.Down, On: below > 0, Do: func() tea.Cmd { s.top = max(s.top, 0) + 1; return nil }},
		{Key: scrollKeys.Up, On: above > 0, Do: func() tea.Cmd { s.top = above - 1; return nil }},
	}
}
