package tui

import (
	"image/color"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// TestUnseenInputDrawsNothing: input that changes nothing shown (a raw
// paste's padding of focus reports, unknown sequences, releases, cursor
// positions, device attributes nobody awaits) neither
// reaches the screen nor draws it again; the frame is the one before.
// Anything else since the last frame draws it anew, even when unseen
// input came after it.
func TestUnseenInputDrawsNothing(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	before := m.View().Content
	drawn := home.views
	for _, msg := range []tea.Msg{tea.FocusMsg{}, tea.BlurMsg{}, uv.UnknownCsiEvent("\x1b[99z"),
		uv.UnknownEvent("\x1b["), tea.KeyReleaseMsg{Code: 'x'}, tea.KeyPressMsg{Code: tea.KeyLeftShift},
		tea.CursorPositionMsg{X: 4, Y: 4}, tea.ModeReportMsg{}, uv.SecondaryDeviceAttributesEvent{1}, uv.PrimaryDeviceAttributesEvent{1, 2}} {
		send(m, msg)
		if m.View().Content != before || home.views != drawn {
			t.Fatalf("%T drew the screen again (%d draws)", msg, home.views-drawn)
		}
	}
	if len(home.got) != 0 {
		t.Fatalf("the screen was given %T", home.got)
	}
	send(m, otherMsg{1})
	send(m, tea.FocusMsg{})
	m.View()
	if home.views != drawn+1 {
		t.Fatal("a message before the focus report did not draw the screen again")
	}
	send(m, press("x"))
	m.View()
	if home.views != drawn+2 {
		t.Fatal("a key did not draw the screen again")
	}
}

// TestMootTerminalAnswersDrawNothing: a colour or keyboard-flags answer
// that changes nothing (after a key, or the theme already its darkness,
// or the flags already taken) draws nothing again, as other unseen input
// does: a paste carrying them redrew the review once each.
func TestMootTerminalAnswersDrawNothing(t *testing.T) {
	c := NewCommon(false, func() time.Time { return fixedNow })
	home := newFake(c, "Home")
	m := New(home, Options{Common: c})
	m.Init()
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	send(m, tea.BackgroundColorMsg{Color: color.Black})
	send(m, tea.KeyboardEnhancementsMsg{Flags: ansi.KittyDisambiguateEscapeCodes})
	m.View()
	drawn := home.views
	for _, msg := range []tea.Msg{tea.BackgroundColorMsg{Color: color.Black},
		tea.KeyboardEnhancementsMsg{Flags: ansi.KittyDisambiguateEscapeCodes}} {
		send(m, msg)
		if m.View(); home.views != drawn {
			t.Fatalf("%T that changed nothing before a key drew the screen again", msg)
		}
	}
	send(m, press("x"))
	m.View()
	drawn = home.views
	for _, msg := range []tea.Msg{tea.BackgroundColorMsg{Color: color.White},
		tea.KeyboardEnhancementsMsg{Flags: ansi.KittyDisambiguateEscapeCodes | ansi.KittyReportEventTypes}} {
		send(m, msg)
		if m.View(); home.views != drawn {
			t.Fatalf("%T after a key drew the screen again", msg)
		}
	}
	send(m, otherMsg{1})
	if m.View(); home.views != drawn+1 {
		t.Fatal("a message after the moot answers did not draw the screen again")
	}
}
