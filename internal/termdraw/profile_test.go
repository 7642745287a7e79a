package termdraw

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// TestTrueColourOnceTmuxSaysSo: a frame drawn in 256 colours is drawn
// again whole in true colour once the profile is raised (tmux's answer
// came after the first frame), not only the cells that change next.
func TestTrueColourOnceTmuxSaysSo(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.ANSI256, []string{"TERM=tmux-256color"})
	defer d.Close()
	const teal = "\x1b[38;2;18;160;150m"
	d.FirstFrame(tea.View{Content: teal + "Sandbox demo\x1b[m", AltScreen: true})
	if raw := s.rawString(); strings.Contains(raw, "38;2;") || !strings.Contains(raw, "38;5;") {
		t.Fatalf("the first frame is not in 256 colours: %q", raw)
	}
	before := s.count()
	d.SetProfile(colorprofile.TrueColor)
	for s.count() == before {
		s.wait(t)
	}
	raw := s.rawString()
	again := raw[strings.LastIndex(raw, "Sandbox")-40:]
	if !strings.Contains(again, "38;2;18;160;150") {
		t.Errorf("not drawn again in true colour: %q", again)
	}
}

func (s *screen) rawString() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw.String()
}
