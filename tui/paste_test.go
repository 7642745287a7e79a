package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// hostilePaste is what bubbletea v2.0.10's input parser (ultraviolet's
// TerminalReader, the version in go.mod) makes of the paste
// "\x1b[201~\t25\r\r" as a terminal brackets it: the inner end marker ends
// the paste, the rest arrives as key presses, and the real end marker as an
// empty paste of its own. TestTmuxPasteCarriesNoKeys (internal/cli) sends
// such bytes through that parser in a real terminal.
var hostilePaste = []tea.Msg{
	tea.PasteStartMsg{}, tea.PasteMsg{Content: ""}, tea.PasteEndMsg{},
	tea.KeyPressMsg{Code: tea.KeyTab},
	tea.KeyPressMsg{Code: '2', Text: "2"}, tea.KeyPressMsg{Code: '5', Text: "5"},
	tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyEnter},
	tea.PasteMsg{Content: ""}, tea.PasteEndMsg{},
}

// TestPasteCarriesNoKeys: the keys a paste carries past an end marker
// never reach the screen, and say so; an enter within PasteGuard of the
// paste is refused too (and extends it), one after it acts. The guard reads
// the root's clock.
func TestPasteCarriesNoKeys(t *testing.T) {
	now := fixedNow
	c := NewCommon(true, func() time.Time { return now })
	form := newFake(c, "Amount")
	form.inputting = true
	m := New(form, Options{Theme: "dark", Common: c})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})

	for _, msg := range hostilePaste {
		send(m, msg)
	}
	if n := received[tea.KeyPressMsg](form); n != 0 || received[tea.PasteMsg](form) != 2 {
		t.Fatalf("the screen got %d keys and %d pastes, want none and both pastes", n, received[tea.PasteMsg](form))
	}
	if out := ansi.Strip(m.render()); !strings.Contains(strings.Join(strings.Fields(out), " "), "came with a paste") {
		t.Errorf("no word of the dropped keys:\n%s", out)
	}
	// Nothing went wrong: the keys are ignored on purpose, said as a notice.
	if out := ansi.Strip(m.render()); strings.Contains(out, "Error:") || m.toast.isErr {
		t.Errorf("the dropped keys are drawn as an error (kind error %v):\n%s", m.toast.isErr, out)
	}

	now = now.Add(PasteGuard - time.Millisecond)
	send(m, press("enter"))
	now = now.Add(PasteGuard - time.Millisecond) // within the guard the refused enter extended
	send(m, press("enter"))
	if n := received[tea.KeyPressMsg](form); n != 0 {
		t.Fatalf("an enter within %s of the paste reached the screen (%d keys)", PasteGuard, n)
	}
	now = now.Add(PasteGuard)
	send(m, press("enter"))
	if n := received[tea.KeyPressMsg](form); n != 1 {
		t.Fatalf("an enter %s after the paste: the screen got %d keys, want 1", PasteGuard, n)
	}
	if m.toast.text != "" {
		t.Errorf("the key that acted left the toast %q", m.toast.text)
	}

	// A plain paste, then a key past the guard: nothing is dropped.
	send(m, tea.PasteStartMsg{})
	send(m, tea.PasteMsg{Content: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"})
	send(m, tea.PasteEndMsg{})
	now = now.Add(PasteGuard)
	send(m, press("x"))
	if n := received[tea.KeyPressMsg](form); n != 2 {
		t.Fatalf("a key %s after a plain paste: the screen got %d keys, want 2", PasteGuard, n)
	}
}

// TestPasteCarriesNoWheel: a mouse event a paste carries past its end
// marker (ESC[<65;10;5M, a wheel notch down, which the parser reads
// whether or not the console asked for the mouse) moves no list's cursor:
// the chain or row enter then picks is the one the person chose.
func TestPasteCarriesNoWheel(t *testing.T) {
	now := fixedNow
	c := NewCommon(true, func() time.Time { return now })
	list := newFake(c, "Chains")
	m := New(list, Options{Theme: "dark", Common: c})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, msg := range []tea.Msg{tea.PasteStartMsg{}, tea.PasteMsg{Content: "BASE"}, tea.PasteEndMsg{},
		tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 10, Y: 5}} {
		send(m, msg)
	}
	if n := received[tea.MouseWheelMsg](list); n != 0 {
		t.Fatalf("a wheel notch that came with a paste reached the screen (%d)", n)
	}
	now = now.Add(2 * PasteGuard)
	send(m, tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 10, Y: 5})
	if n := received[tea.MouseWheelMsg](list); n != 1 {
		t.Fatalf("a wheel notch after the paste's guard: the screen got %d, want 1", n)
	}
}

// TestPasteToastKeepsTheQuestionsRows (seen in tmux at 60x20: the toast's
// three rows left the loss question "Too small to review", and its going
// held the question's keys 2 s again): on a screen that asks (Asking) the
// word of keys a paste carried takes the footer's row, the question keeps
// every row, and the toast's going shows nothing again. The footer's keys
// are back once it goes.
func TestPasteToastKeepsTheQuestionsRows(t *testing.T) {
	m, review := newRoot(t, 60, 20)
	review.asks = true
	h := review.h
	send(m, tea.PasteStartMsg{})
	send(m, tea.PasteMsg{Content: "hello"})
	send(m, tea.PasteEndMsg{})
	send(m, press("x"))
	frame := checkFrame(t, m, 60, 20)
	lines := strings.Split(ansi.Strip(frame), "\n")
	if review.h != h || !strings.Contains(lines[len(lines)-1], pastedKeysBrief) {
		t.Fatalf("the toast took rows (content %d, was %d) or is not in the footer's:\n%s", review.h, h, ansi.Strip(frame))
	}
	if m.toast.isErr || !strings.Contains(frame, m.common.Styles.InfoToast.Render(pastedKeysBrief)) {
		t.Errorf("the dropped keys are drawn as an error in the footer (kind error %v):\n%q", m.toast.isErr, frame)
	}
	send(m, dismissToastMsg{tag: m.toast.tag})
	frame = ansi.Strip(checkFrame(t, m, 60, 20))
	if received[ShownAgainMsg](review) != 0 || review.h != h || strings.Contains(frame, pastedKeysBrief) || !strings.Contains(frame, "? help") {
		t.Fatalf("the toast's going: shown again %d times, content %d (was %d):\n%s", received[ShownAgainMsg](review), review.h, h, frame)
	}
}

// TestPasteToastGoesWithItsQuestion: the word of keys a paste carried
// hides the footer's keys only while the question it came on is on top
// and asks; once it is replaced (esc back, a result or another question
// pushed, the screen sending) the footer names the keys that act at once, not after the
// toast's lifetime: a key hint is a promise.
func TestPasteToastGoesWithItsQuestion(t *testing.T) {
	for name, replace := range map[string]func(m *Model, review *fakeScreen, now *time.Time){
		"esc back": func(m *Model, _ *fakeScreen, now *time.Time) {
			*now = now.Add(PasteGuard)
			send(m, press("esc"))
		},
		"a result": func(m *Model, _ *fakeScreen, _ *time.Time) {
			send(m, PushMsg{Screen: newFake(m.common, "Result")})
		},
		"another question": func(m *Model, _ *fakeScreen, _ *time.Time) {
			next := newFake(m.common, "Bridge")
			next.asks = true
			send(m, PushMsg{Screen: next})
		},
		"the screen goes back itself": func(m *Model, review *fakeScreen, _ *time.Time) {
			send(m, PopMsg{Screen: review})
		},
		"it no longer asks": func(m *Model, review *fakeScreen, _ *time.Time) {
			review.asks = false
			send(m, otherMsg{1})
		},
	} {
		t.Run(name, func(t *testing.T) {
			now := fixedNow
			c := NewCommon(true, func() time.Time { return now })
			m := New(newFake(c, "Home"), Options{Theme: "dark", Common: c})
			m.Init()
			send(m, tea.WindowSizeMsg{Width: 60, Height: 20})
			review := newFake(c, "Review")
			review.asks = true
			send(m, PushMsg{Screen: review})
			send(m, tea.PasteStartMsg{})
			send(m, tea.PasteMsg{Content: "\r\r"})
			send(m, tea.PasteEndMsg{})
			send(m, press("x"))
			if frame := ansi.Strip(checkFrame(t, m, 60, 20)); !strings.Contains(frame, pastedKeysBrief) {
				t.Fatalf("no toast in the footer:\n%s", frame)
			}
			replace(m, review, &now)
			frame := ansi.Strip(checkFrame(t, m, 60, 20))
			if strings.Contains(frame, pastedKeysBrief) || !strings.Contains(frame, "↑/k up") {
				t.Fatalf("the footer's keys are not back at once:\n%s", frame)
			}
		})
	}
}
