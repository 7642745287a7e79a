package plain

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// TestEarlierJournalSaidBeforeTheFirstQuestion: a journal an earlier
// svcwallet left beside the one in use (osguard.ErrLeftBeside) is said on
// plain mode's own output before its first question, named escaped, with
// what it means and what to do.
func TestEarlierJournalSaidBeforeTheFirstQuestion(t *testing.T) {
	r := newRig(t)
	left := osguard.Moved{From: "/home/ann/.local/state/svcwallet\x1b[2J/journal.jsonl", To: "/home/ann/Library/Application Support/svcwallet/journal.jsonl", Err: osguard.ErrLeftBeside}
	r.console.EarlierJournals = []osguard.Moved{left}
	out, err := r.run(typed("quit")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	said := strings.Index(out, safetext.Shown(left.From))
	if asked := strings.Index(out, "How do you log in?"); said < 0 || asked < 0 || said > asked {
		t.Fatalf("the earlier journal is not said before the first question:\n%s", out)
	}
	wants(t, out, left.To, "not seen by the check that a withdrawal is sent once", "Quit the earlier svcwallet", `lines name it after "quote_id"`, ", the journal in use.")
	if strings.Contains(out, "\x1b") {
		t.Errorf("the earlier journal's path is written with its escape:\n%q", out)
	}
}

// TestEarlierJournalNotMovedSaidWithWhy: a journal whose move failed is said
// with the system's reason and that the next run moves it, never with the
// advice to move it elsewhere, where it would stay unseen for good.
func TestEarlierJournalNotMovedSaidWithWhy(t *testing.T) {
	r := newRig(t)
	cause := &os.PathError{Op: "mkdir", Path: "/home/ann/Library", Err: syscall.EACCES}
	left := osguard.Moved{From: "/home/ann/.local/state/svcwallet/journal.jsonl", To: "/home/ann/Library/Application Support/svcwallet/journal.jsonl", Err: &osguard.NotMovedError{Cause: cause}}
	r.console.EarlierJournals = []osguard.Moved{left}
	out, err := r.run(typed("quit")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wants(t, out, left.From, "it could not be moved to "+left.To+" (mkdir: permission denied)", "not seen by the check that a withdrawal is sent once", "Quit the earlier svcwallet", "The next run moves the file once nothing stops it.")
	if strings.Contains(out, "move that file elsewhere") || strings.Contains(out, "the journal in use") {
		t.Errorf("a journal not moved is said as one beside the journal in use:\n%s", out)
	}
}
