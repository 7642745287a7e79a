package tui

import (
	"errors"
	"image/color"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestKeyReleasesDoNothing: the console asks the terminal for the keys'
// event types, every key as an escape code (a terminal speaking the kitty
// keyboard protocol then says which presses are a held key's repeats, an
// enter's and a y's too, which otherwise come as plain bytes), so each key
// also comes as a release, and a modifier or lock key pressed alone comes
// as a key, which nothing acts on: the screen never gets them, and they
// dismiss no toast, as the press before did not either when it was the
// screen's. A key pressed with shift still does.
func TestKeyReleasesDoNothing(t *testing.T) {
	m, top := newRoot(t, 100, 30)
	if k := m.View().KeyboardEnhancements; !k.ReportEventTypes || !k.ReportAllKeysAsEscapeCodes || !k.ReportAssociatedText {
		t.Fatalf("the console does not ask for every key's event types with its text: %+v", k)
	}
	send(m, ShowError(errors.New("refused"))())
	send(m, tea.KeyReleaseMsg{Code: tea.KeyEnter})
	send(m, tea.KeyReleaseMsg{Code: 'q', Text: "q"})
	for _, c := range []rune{tea.KeyLeftShift, tea.KeyRightCtrl, tea.KeyLeftAlt, tea.KeyIsoLevel5Shift, tea.KeyCapsLock, tea.KeyNumLock} {
		send(m, tea.KeyPressMsg{Code: c})
	}
	if n := received[tea.KeyReleaseMsg](top) + received[tea.KeyPressMsg](top); n != 0 || m.toast.text == "" {
		t.Fatalf("releases or modifiers alone reached the screen %d times, toast left %q", n, m.toast.text)
	}
	send(m, tea.KeyPressMsg{Code: 'y', ShiftedCode: 'Y', Mod: tea.ModShift, Text: "Y"})
	if received[tea.KeyPressMsg](top) != 1 {
		t.Fatal("a Y typed with shift did not reach the screen")
	}
}

// TestRepeatsToldOnlyWhenTheTerminalSaysSo: the console knows a held key's
// repeats are told (Common.RepeatsTold, which lets a question that signs
// hold keys the shorter guard) only once the terminal says it reports event
// types; a terminal that disambiguates keys alone does not tell repeats.
func TestRepeatsToldOnlyWhenTheTerminalSaysSo(t *testing.T) {
	m, _ := newRoot(t, 100, 30)
	if m.common.RepeatsTold {
		t.Fatal("repeats told before the terminal said so")
	}
	send(m, tea.KeyboardEnhancementsMsg{Flags: ansi.KittyDisambiguateEscapeCodes})
	if m.common.RepeatsTold {
		t.Fatal("a terminal that only disambiguates keys is taken to tell repeats")
	}
	send(m, tea.KeyboardEnhancementsMsg{Flags: ansi.KittyDisambiguateEscapeCodes | ansi.KittyReportEventTypes})
	if !m.common.RepeatsTold {
		t.Fatal("a terminal that reports event types is not taken to tell repeats")
	}
}

// TestTerminalAnswersOnlyBeforeInput: what the terminal says of itself
// (its background colour, its keyboard flags) is its answer to the
// console's question at start, which comes before any key or paste. One
// that comes after is a paste's bytes or another program's (a paste
// carrying ESC[201~ then ESC]11;rgb:ffff/ffff/ffff or ESC[?31u): taken,
// it drew the review in the light theme's near-black text on a dark
// terminal, unreadable while enter signed, or halved how long the review
// holds a held key's repeats on a terminal that tells none (seen in tmux:
// keys offered 1.1 s after the review showed, not 2.2 s).
func TestTerminalAnswersOnlyBeforeInput(t *testing.T) {
	for name, first := range map[string]tea.Msg{
		"a key":   tea.KeyPressMsg{Code: 'x', Text: "x"},
		"a paste": tea.PasteStartMsg{},
	} {
		t.Run(name, func(t *testing.T) {
			c := NewCommon(false, func() time.Time { return fixedNow })
			m := New(newFake(c, "Home"), Options{Common: c})
			m.Init()
			send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
			send(m, tea.BackgroundColorMsg{Color: color.Black})
			if !m.common.Styles.IsDark {
				t.Fatal("the answer at start was not taken")
			}
			send(m, first)
			send(m, tea.PasteMsg{Content: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"})
			send(m, tea.PasteEndMsg{})
			send(m, tea.BackgroundColorMsg{Color: color.White})
			send(m, tea.KeyboardEnhancementsMsg{Flags: ansi.KittyDisambiguateEscapeCodes | ansi.KittyReportEventTypes})
			if !m.common.Styles.IsDark {
				t.Error("a colour answer after " + name + " switched the theme")
			}
			if m.common.RepeatsTold {
				t.Error("keyboard flags after " + name + " made the console take repeats as told")
			}
		})
	}
}
