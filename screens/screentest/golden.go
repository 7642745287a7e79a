package screentest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/tui"
)

// GoldenFrames checks the whole frame (top bar, content, footer) of root
// at every GoldenSizes against the goldens, without escapes, and returns the
// raw frames. read, unless nil, runs after each resize, before the frame is
// drawn: a question holds its keys a while after its area grew
// (tui.ShownAgainMsg), and read moves the clock past it.
func GoldenFrames(t *testing.T, root *tui.Model, read func()) map[string]string {
	t.Helper()
	raw := map[string]string{}
	for _, sz := range GoldenSizes {
		name := fmt.Sprintf("%dx%d", sz.W, sz.H)
		Feed(root, tea.WindowSizeMsg{Width: sz.W, Height: sz.H})
		if read != nil {
			read()
		}
		frame := CheckFrame(t, root.View().Content, sz.W, sz.H)
		raw[name] = frame
		t.Run(name, func(t *testing.T) { golden.RequireEqual(t, []byte(ansi.Strip(frame))) })
	}
	return raw
}

// GoldenSizes are the terminal sizes every golden is drawn at: the smallest
// the console draws, the commonest and a large one.
var GoldenSizes = []struct{ W, H int }{{60, 20}, {80, 24}, {120, 40}}

// CheckFrame fails unless frame has exactly h lines of at most w cells.
func CheckFrame(t testing.TB, frame string, w, h int) string {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Errorf("%dx%d: frame has %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("%dx%d: line %d is %d cells wide: %q", w, h, i+1, n, ansi.Strip(l))
		}
	}
	return frame
}

// RequireTitleOnce fails unless the frame's top bar names title and the
// rest of the frame does not repeat it.
func RequireTitleOnce(t *testing.T, frame, title string) {
	t.Helper()
	plain := ansi.Strip(frame)
	bar, _, _ := strings.Cut(plain, "\n")
	if !strings.Contains(bar, title) {
		t.Errorf("the top bar does not name %q: %q", title, bar)
	}
	if n := strings.Count(plain, title); n != 1 {
		t.Errorf("%q appears %d times in the frame:\n%s", title, n, plain)
	}
}

// RootFrame draws screen s under a root model at 120x40.
func RootFrame(s tui.Screen, app *kit.App) string {
	app.Common.TopBar = app.TopBar
	// The session countdown's redraw is not waited for: one frame is drawn.
	root := tui.New(s, tui.Options{Theme: "dark", Common: app.Common, Timer: func(time.Duration, tea.Msg) tea.Cmd { return nil }})
	Feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})
	return root.View().Content
}
