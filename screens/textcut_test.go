package screens

import (
	"strings"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// cutStates are screens beyond the goldens' whose text runs long.
var cutStates = []consoleState{
	{"board", func(c *screentest.Console) {
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.Press("s")
		c.Until("the watch board", func(v string) bool { bar, _, _ := strings.Cut(v, "\n"); return !strings.Contains(bar, "Home") })
	}},
	{"history", func(c *screentest.Console) {
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.Press("h")
		c.Until("the history screen", func(v string) bool { bar, _, _ := strings.Cut(v, "\n"); return !strings.Contains(bar, "Home") })
	}},
}

// TestNoWordCutSilently (issue 12 bug 7) draws every golden screen, and the
// watch board and history, at each width from 60 to 200 columns: a line that
// fills the width ends in "…", a space, a whole word, or a word continued on
// the next line (a long address or digest broken into pieces). A whole word
// is one seen somewhere with room after it, at 200 columns or on a line
// that does not fill the width.
func TestNoWordCutSilently(t *testing.T) {
	if testing.Short() {
		t.Skip("141 widths of every screen")
	}
	for _, st := range append(append([]consoleState{}, consoleStates...), cutStates...) {
		t.Run(st.name, func(t *testing.T) {
			c := newConsole(t, 200, 40, screentest.ConsoleOpts{})
			st.reach(c)
			frames := map[int][]string{}
			words := map[string]bool{}
			for w := 60; w <= 200; w++ {
				c.Send(tea.WindowSizeMsg{Width: w, Height: 40})
				lines := strings.Split(ansi.Strip(c.View()), "\n")
				frames[w] = lines
				for _, l := range lines {
					if ansi.StringWidth(strings.TrimRight(l, " ")) < w || w == 200 {
						for _, f := range strings.Fields(l) {
							words[f] = true
						}
					}
				}
			}
			for w := 60; w <= 200; w++ {
				lines := frames[w]
				for i, l := range lines {
					if ansi.StringWidth(l) < w || strings.HasSuffix(l, "…") || strings.HasSuffix(l, " ") {
						continue
					}
					f := strings.Fields(l)
					last := f[len(f)-1]
					if words[last] || !unicode.IsLetter([]rune(last)[len([]rune(last))-1]) && !unicode.IsDigit([]rune(last)[len([]rune(last))-1]) {
						continue
					}
					if i+1 < len(lines) {
						if next := strings.Fields(lines[i+1]); len(next) > 0 && continues(words, last+next[0]) {
							continue
						}
					}
					t.Errorf("%d columns, line %d ends in a cut word %q:\n%s", w, i+1, last, l)
				}
			}
		})
	}
}

// continues reports whether s is the start of a longer whole word or is
// one: a token broken over two lines.
func continues(words map[string]bool, s string) bool {
	for w := range words {
		if strings.Contains(w, s) {
			return true
		}
	}
	return false
}
