package cli

import (
	"strings"
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
	if !ok || !ok2 || !ok3 || over.Tag != first.Tag || first.Tag == second.Tag || first.Text != journal.Brief() {
		t.Fatalf("sent %#v: the journal's wait is not the word taken down", sent)
	}
}

// TestConsoleLockWaitWholeAt60And80 (found by review): the console's word
// of a wait on the journal's lock carried two full paths, and its three
// rows cut it before "svcwallet waits for it to finish…" at 80x24 and
// 60x20. Said briefly (osguard.Waiting.Brief) it is whole there, holder
// and file named; the command line's words keep the paths.
func TestConsoleLockWaitWholeAt60And80(t *testing.T) {
	const path = "/home/someone-with-a-long-name/.local/state/svcwallet/journal.jsonl"
	for _, wt := range []osguard.Waiting{
		{Wait: osguard.Wait{Doing: "checking and recording a withdrawal in the journal " + path, Unbounded: true}, Lock: path + ".lock", Holder: "process 4242 (svcwallet)"},
		{Wait: osguard.Wait{Doing: "writing the journal " + path + " or its record", Unbounded: true}, Lock: path + ".written.lock", Holder: "process 4242 (svcwallet)"},
	} {
		var sent []tea.Msg
		lockWaitsIn(func(m tea.Msg) { sent = append(sent, m) }).Say(wt)
		text := sent[0].(tui.StandingMsg).Text
		for _, w := range []int{60, 80} {
			lines := strings.Split(tui.Wrap(text, w), "\n")
			if len(lines) > 3 || !strings.HasSuffix(text, "svcwallet waits for it to finish…") ||
				!strings.Contains(text, "journal.jsonl") || !strings.HasPrefix(text, "process 4242 (svcwallet) is ") {
				t.Errorf("at %d columns, in %d rows of 3:\n%s", w, len(lines), strings.Join(lines, "\n"))
			}
		}
		if !strings.Contains(wt.String(), path+".") {
			t.Errorf("the command line's words lost the lock's path: %s", wt)
		}
	}
}
