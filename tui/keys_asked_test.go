package tui

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// TestAFrameAsksTheKeysOnce: drawing a frame asks the top screen's KeyMap
// once, with the help closed or open, the footer being drawn again or not
// (twice when the content area changed size since the last frame), and
// laying out the content area after input asks them once:
// the withdrawal review lays itself out up to seven times to know its
// keys, and the footer asked them up to six times a frame.
func TestAFrameAsksTheKeysOnce(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	home.keys = testKeys
	for _, step := range []struct {
		what string
		msg  tea.Msg
		want int
	}{
		{"a first frame", otherMsg{1}, 1},
		{"the footer unchanged", otherMsg{2}, 1},
		{"the full help open", press("?"), 1},
		{"an answer with the help open", otherMsg{3}, 1},
		{"a resize with the help open", tea.WindowSizeMsg{Width: 60, Height: 20}, 1},
		{"the help closed", press("?"), 1},
		{"a toast up", InfoMsg{Text: "noted"}, 2}, // the content area shrank: asked again at its size
		{"then an answer", otherMsg{4}, 1},
	} {
		send(m, step.msg)
		home.keyMaps = 0
		m.View()
		if home.keyMaps != step.want {
			t.Errorf("%s: the frame asked the screen's keys %d times, want %d", step.what, home.keyMaps, step.want)
		}
	}
	// Input lays out the content area at once (resizeShown): the footer's
	// size asks the keys once too.
	home.keyMaps = 0
	send(m, press("?"))
	if home.keyMaps != 1 {
		t.Errorf("? asked the screen's keys %d times, want once", home.keyMaps)
	}
	if !key.Matches(press("?"), globalKeys.Help) {
		t.Fatal("? is not the help key the test opens the help with")
	}
}
