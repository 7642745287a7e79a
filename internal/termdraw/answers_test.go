package termdraw

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
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

// TestOnlyTheMeasuredSizeReachesTheModel: the drawer measures the terminal
// (WatchSize) and the model lays out for what it is told. A size report in
// the input (ESC[8;90;250t, which the parser takes as a resize, asked for
// by nobody) that a paste carried after its end mark drew the review for a
// 250x90 terminal on a 100x32 one: the top bar's environment, the footer
// and the bridge address's trust note were cut off while enter signed
// (seen in tmux).
func TestOnlyTheMeasuredSizeReachesTheModel(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, []string{"TERM=xterm-256color"})
	d.FirstFrame(tea.View{Content: "review", AltScreen: true})
	defer d.Close()
	if got := d.Filter(nil, tea.WindowSizeMsg{Width: 250, Height: 90}); got != nil {
		t.Errorf("a size the drawer did not measure reached the model: %v", got)
	}
	if got := d.Filter(nil, tea.WindowSizeMsg{Width: 40, Height: 10}); got == nil {
		t.Error("the measured size did not reach the model")
	}
	d.Resize(60, 20)
	if got := d.Filter(nil, tea.WindowSizeMsg{Width: 60, Height: 20}); got == nil {
		t.Error("the size measured after a resize did not reach the model")
	}
}

// TestModeReportsAfterAKeyRelease: a key's release, or a modifier pressed
// alone, is no key or paste a person gives (the model ignores both:
// tui.Typed). The release of the Enter that started the console comes
// once the first frame asked the kitty protocol for releases, often before
// the terminal's answers about modes 2026 and 2027 (over ssh a round trip
// later): taken as typing, the genuine answers were dropped.
func TestModeReportsAfterAKeyRelease(t *testing.T) {
	for name, first := range map[string]tea.Msg{
		"a release":    tea.KeyReleaseMsg{Code: tea.KeyEnter},
		"a lone shift": tea.KeyPressMsg{Code: tea.KeyLeftShift},
	} {
		t.Run(name, func(t *testing.T) {
			s := newScreen(40, 10)
			d := New(s, 40, 10, colorprofile.TrueColor, []string{"TERM=xterm-256color"})
			d.FirstFrame(tea.View{Content: "check", AltScreen: true})
			defer d.Close()
			d.Filter(nil, first)
			d.Filter(nil, tea.ModeReportMsg{Mode: ansi.ModeSynchronizedOutput, Value: ansi.ModeReset})
			d.mu.Lock()
			defer d.mu.Unlock()
			if !d.syncd {
				t.Errorf("the mode report after %s was not taken", name)
			}
		})
	}
}

// TestDeviceAttributesPassAfterInput: the answer to Primary Device
// Attributes comes after keys by design (tui.Settle asks it after each
// key), so unlike a mode report it reaches the model after input: dropped,
// no answer key would act but by time.
func TestDeviceAttributesPassAfterInput(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, []string{"TERM=xterm-256color"})
	d.FirstFrame(tea.View{Content: "review", AltScreen: true})
	defer d.Close()
	d.Filter(nil, tea.KeyPressMsg{Code: tea.KeyEnter})
	if got := d.Filter(nil, uv.PrimaryDeviceAttributesEvent{1, 2}); got == nil {
		t.Error("the terminal's answer after a key did not reach the model")
	}
}
