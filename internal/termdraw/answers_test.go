package termdraw

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// TestModeReportsOnlyBeforeInput: the terminal's answers about modes 2026
// and 2027 come right after the questions the first frame asks, before any
// key or paste. One after is a paste's bytes (ESC[201~ then
// ESC[?2027;1$y): taken, a terminal that measures no graphemes was drawn
// as one that does, each wide grapheme shifting the rest of its row.
func TestModeReportsOnlyBeforeInput(t *testing.T) {
	for name, first := range map[string]tea.Msg{
		"a key":   tea.KeyPressMsg{Code: 'x', Text: "x"},
		"a paste": tea.PasteStartMsg{},
	} {
		t.Run(name, func(t *testing.T) {
			s := newScreen(40, 10)
			d := New(s, 40, 10, colorprofile.TrueColor, []string{"TERM=xterm-256color"})
			d.FirstFrame(tea.View{Content: "⚠️ check", AltScreen: true})
			defer d.Close()
			d.Filter(nil, first)
			d.Filter(nil, tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset})
			d.Filter(nil, tea.ModeReportMsg{Mode: ansi.ModeSynchronizedOutput, Value: ansi.ModeReset})
			d.mu.Lock()
			defer d.mu.Unlock()
			if d.unicode || d.syncd {
				t.Errorf("mode reports after %s taken: grapheme widths %v, synchronized output %v", name, d.unicode, d.syncd)
			}
		})
	}
}
