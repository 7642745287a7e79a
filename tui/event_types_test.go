package tui

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestKeyReleasesDoNothing: the console asks the terminal for the keys'
// event types (a terminal speaking the kitty keyboard protocol then says
// which presses are a held key's repeats), so each key also comes as a
// release, which nothing acts on: the screen never gets it, and it
// dismisses no toast, as the press before it did not either when it was
// the screen's.
func TestKeyReleasesDoNothing(t *testing.T) {
	m, top := newRoot(t, 100, 30)
	if !m.View().KeyboardEnhancements.ReportEventTypes {
		t.Fatal("the console does not ask for the keys' event types")
	}
	send(m, ShowError(errors.New("refused"))())
	send(m, tea.KeyReleaseMsg{Code: tea.KeyEnter})
	send(m, tea.KeyReleaseMsg{Code: 'q', Text: "q"})
	if n := received[tea.KeyReleaseMsg](top); n != 0 || m.toast.text == "" {
		t.Fatalf("releases reached the screen %d times, toast left %q", n, m.toast.text)
	}
}
