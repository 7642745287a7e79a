package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestTooSmallOnlyQuits (issue 29 item 4): while the terminal is below
// the minimum, the notice is all it shows, so no key, paste or wheel
// reaches a screen and none goes back or opens the help; q and ctrl+c
// still quit, asking first while money moves, and the notice shows that
// question. Once the terminal is large enough, keys act again.
func TestTooSmallOnlyQuits(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	top := newFake(home.common, "Review")
	top.inputting = true
	send(m, Push(top)())
	send(m, tea.WindowSizeMsg{Width: 40, Height: 16})
	frame := ansi.Strip(checkFrame(t, m, 40, 16))
	if flat := strings.Join(strings.Fields(frame), " "); !strings.Contains(flat, "need at least 60x20, have 40x16") ||
		!strings.Contains(flat, "press q to quit") {
		t.Fatalf("the notice does not say the size needed and had, or the key:\n%s", frame)
	}
	for _, msg := range []tea.Msg{press("enter"), press("d"), press("esc"), press("?"),
		tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}, tea.PasteMsg{Content: "25"},
		tea.MouseWheelMsg{Button: tea.MouseWheelDown}} {
		if msgs, _ := send(m, msg); len(msgs) != 0 {
			t.Errorf("%v at 40x16 returned %v", msg, msgs)
		}
	}
	if n := len(top.got); n != 0 || m.top() != top || m.fullHelp {
		t.Fatalf("at 40x16 the screen got %d messages (%v), top %q, full help %v", n, top.got, m.top().Title(), m.fullHelp)
	}
	if got := ansi.Strip(checkFrame(t, m, 40, 16)); got != frame {
		t.Fatalf("the frame changed at 40x16:\n%s", got)
	}

	home.busy = true
	if msgs, _ := send(m, press("q")); len(msgs) != 0 {
		t.Fatalf("q while busy quit at once: %v", msgs)
	}
	if flat := strings.Join(strings.Fields(ansi.Strip(m.render())), " "); !strings.Contains(flat, "Quit anyway? (y/N)") {
		t.Fatalf("the quit question is not on the small terminal:\n%s", m.render())
	}
	send(m, press("n"))
	if msgs, _ := send(m, press("ctrl+c")); len(msgs) != 0 {
		t.Fatalf("ctrl+c while busy quit at once: %v", msgs)
	}
	if msgs, _ := send(m, press("y")); len(msgs) != 1 || msgs[0] != (tea.QuitMsg{}) {
		t.Fatalf("y to the question: %v, want tea.QuitMsg", msgs)
	}
	if len(top.got) != 0 {
		t.Fatalf("the screen got %v while the terminal was too small", top.got)
	}

	send(m, tea.WindowSizeMsg{Width: 60, Height: 20})
	send(m, press("x"))
	if received[tea.KeyPressMsg](top) != 1 {
		t.Fatal("at 60x20 a key did not reach the screen")
	}
}

// TestShownAgainAfterTooSmall: the top screen is told when it shows again
// after the too-small notice (ShownAgainMsg), which hid it and took every
// key, so a question that signs holds its keys as when it first showed; a
// resize that shrinks it, or to a size too small, tells nothing.
func TestShownAgainAfterTooSmall(t *testing.T) {
	m, home := newRoot(t, 100, 30)
	top := newFake(home.common, "Review")
	send(m, Push(top)())
	for _, size := range []tea.WindowSizeMsg{{Width: 80, Height: 24}, {Width: 40, Height: 16}, {Width: 50, Height: 18}} {
		send(m, size)
	}
	if n := received[ShownAgainMsg](top); n != 0 {
		t.Fatalf("resizes that hid more, or showed nothing, told %d", n)
	}
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if n := received[ShownAgainMsg](top); n != 1 {
		t.Fatalf("shown again after the notice: told %d times, want 1", n)
	}
}

// TestShownAgainWhenItsAreaGrows: a screen may be drawn in part, or not at
// all, in a smaller area (a review says "Too small to review" while the
// help or a toast takes its rows), so the top screen is told it shows
// again whenever its area grows: the help closed, a toast gone, the window
// made larger. At 60x20 the help hid the review, and an enter 150 ms after
// ? closed it signed it (seen in tmux).
func TestShownAgainWhenItsAreaGrows(t *testing.T) {
	m, home := newRoot(t, 60, 20)
	top := newFake(home.common, "Review")
	send(m, Push(top)())
	send(m, press("?"))
	if !m.fullHelp || received[ShownAgainMsg](top) != 0 {
		t.Fatalf("opening the help: open %v, told %d", m.fullHelp, received[ShownAgainMsg](top))
	}
	for m.fullHelp {
		send(m, press("?"))
	}
	if n := received[ShownAgainMsg](top); n != 1 {
		t.Fatalf("the help closed: told %d times, want 1", n)
	}
	send(m, InfoMsg{Text: "noted"})
	m.View() // drawn with the toast, its rows taken
	send(m, dismissToastMsg{tag: m.toast.tag})
	if n := received[ShownAgainMsg](top); n != 2 {
		t.Fatalf("the toast gone: told %d times, want 2", n)
	}
	send(m, tea.WindowSizeMsg{Width: 61, Height: 20})
	if n := received[ShownAgainMsg](top); n != 3 {
		t.Fatalf("the window wider: told %d times, want 3", n)
	}
}
