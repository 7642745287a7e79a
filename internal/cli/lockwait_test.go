package cli

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/tui"
)

// TestConsoleLockWaitStandsUntilOver: the console says a long wait on a
// lock in a standing word, not a toast that fades, and takes down that
// wait's word, and only it, once osguard says the wait is over.
func TestConsoleLockWaitStandsUntilOver(t *testing.T) {
	var sent []tea.Msg
	lw := lockWaitsIn(func(m tea.Msg) { sent = append(sent, m) })
	journal := osguard.Waiting{Wait: osguard.Wait{Doing: "checking and recording a withdrawal", Unbounded: true}, Lock: "/j.lock", Seq: 7}
	other := osguard.Waiting{Wait: osguard.Wait{Doing: "x"}, Lock: "/j.lock", Seq: 8}
	lw.Say(journal)
	lw.Say(other)
	lw.Over(journal)
	lw.Over(journal) // told twice: taken down once
	if len(sent) != 3 {
		t.Fatalf("sent %#v, want two standing words and one taken down", sent)
	}
	first, ok := sent[0].(tui.StandingMsg)
	second, ok2 := sent[1].(tui.StandingMsg)
	over, ok3 := sent[2].(tui.StandingOverMsg)
	if !ok || !ok2 || !ok3 || over.Tag != first.Tag || first.Tag == second.Tag || first.Text != journal.String() {
		t.Fatalf("sent %#v: the journal's wait is not the word taken down", sent)
	}
}
