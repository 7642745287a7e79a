package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// owingScreen is a fakeScreen that owes a write when it leaves (Owing).
type owingScreen struct{ *fakeScreen }

// owedMsg is what an owingScreen's write returns, naming the screen.
type owedMsg struct{ title string }

func (o owingScreen) Owed() tea.Cmd {
	title := o.title
	return func() tea.Msg { return owedMsg{title} }
}

// TestOwedWriteRunsOnLeaving: a screen's owed write (the watch board's
// answers waiting for their save) runs when it is popped and when it is
// reset away, once, never while it is only covered.
func TestOwedWriteRunsOnLeaving(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	owes := func(msgs []tea.Msg) (titles []string) {
		for _, msg := range msgs {
			if o, ok := msg.(owedMsg); ok {
				titles = append(titles, o.title)
			}
		}
		return titles
	}
	a, b := owingScreen{newFake(home.common, "A")}, owingScreen{newFake(home.common, "B")}
	send(m, PushMsg{Screen: a})
	if got, _ := send(m, PushMsg{Screen: b}); len(owes(got)) != 0 {
		t.Fatalf("a covered screen's write ran: %v", owes(got))
	}
	if got, _ := send(m, PopMsg{Screen: b}); len(owes(got)) != 1 || owes(got)[0] != "B" {
		t.Fatalf("popped, the writes run are %v; want B's", owes(got))
	}
	if got, _ := send(m, Reset(newFake(home.common, "C"))()); len(owes(got)) != 1 || owes(got)[0] != "A" {
		t.Fatalf("reset away, the writes run are %v; want A's", owes(got))
	}
}
