package cli

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// TestEarlierFilesMoved: a command that reads svcwallet's files first moves
// an earlier version's to where this one keeps them, saying so on stderr,
// and says what must be moved by hand; version, man, completion and help
// touch nothing.
func TestEarlierFilesMoved(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	run := func(args ...string) (calls int, stderr string) {
		var out, errOut bytes.Buffer
		a := newApp(CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }})
		a.moveEarlier = func() []osguard.Moved {
			calls++
			return []osguard.Moved{
				{From: "/home/ann/.local/state/svcwallet/journal.jsonl", To: "/home/ann/Library/Application Support/svcwallet/journal.jsonl"},
				{From: "/old/keystore/UTC--k", To: "/new/keystore/UTC--k", Err: errors.New("cross-device link")},
				// A folder's name the environment gave, said as it is.
				{From: "/old/st\u202eate/UTC--j", To: "/new/st\u202eate/UTC--j"},
				{From: "/old/st\u00a0ate/UTC--i", To: "/new/keystore/UTC--i", Err: errors.New("cross-device link")},
				{From: "/old/state/journal.jsonl", To: "/new/state/journal.jsonl", Err: osguard.ErrLeftBeside},
				// The system's error names the paths again, unescaped.
				{From: "/old/k\x1b[2J/UTC--e", To: "/new/keystore/UTC--e", Err: &os.LinkError{Op: "rename", Old: "/old/k\x1b[2J/UTC--e", New: "/new/keystore/UTC--e", Err: syscall.EXDEV}},
				// Linked at the new place, its earlier name not removed
				// (Windows, a file an earlier version holds open).
				{From: "/old/linked/journal.jsonl", To: "/new/linked/journal.jsonl", Err: &osguard.LinkedError{Cause: &os.PathError{Op: "remove", Path: "/old/linked/journal.jsonl", Err: syscall.EACCES}}},
			}
		}
		a.execute(args)
		return calls, errOut.String()
	}
	for _, args := range [][]string{{"version"}, {"man"}, {"completion", "bash"}, {"help", "status"}} {
		if calls, _ := run(args...); calls != 0 {
			t.Errorf("%v moved files", args)
		}
	}
	calls, stderr := run("key", "list")
	if calls != 1 {
		t.Fatalf("key list: moved %d times, want once", calls)
	}
	for _, want := range []string{
		"moved /home/ann/.local/state/svcwallet/journal.jsonl to /home/ann/Library/Application Support/svcwallet/journal.jsonl",
		"/old/keystore/UTC--k, written by an earlier version, could not be moved to /new/keystore/UTC--k (cross-device link): move it there by hand",
		`moved "/old/st\u202eate/UTC--j" to "/new/st\u202eate/UTC--j", where`,
		`"/old/st\u00a0ate/UTC--i", written by an earlier version, could not`,
		`"/old/k\x1b[2J/UTC--e", written by an earlier version, could not be moved to /new/keystore/UTC--e (rename: invalid cross-device link): move it there by hand`,
		// One file at both names: neither "move it there by hand" (over
		// itself) nor not seen.
		"moved /old/linked/journal.jsonl to /new/linked/journal.jsonl, where this version keeps it, but its earlier name could not be removed (remove: permission denied): it is one file at both, and the next run removes that name",
		// Moved by hand, it would replace the journal in use.
		"/old/state/journal.jsonl, a withdrawal journal an earlier version wrote, was left where it is: /new/state/journal.jsonl is the journal now, and the withdrawals in the earlier one are not seen by the check that a withdrawal is sent once; before making one of them again, look it up by its quote id (status, or the watch board): the file is text, and a withdrawal's lines name it after \"quote_id\"; quit the earlier svcwallet if one is still open, then move that file elsewhere",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "/old/linked/journal.jsonl, written by") {
		t.Errorf("a file linked at its new place said not moved:\n%s", stderr)
	}
	if strings.ContainsAny(stderr, "\u202e\u00a0\x1b") {
		t.Errorf("a moved file's path said unescaped:\n%q", stderr)
	}
}

// TestEarlierJournalSaidByEachFace: a journal an earlier version left
// beside the one in use is said once a run, escaped, by the face that
// runs: a command and the console on stderr (the console on its screen
// too, screens.TestEarlierJournalSaidBeforeLogin), plain mode on its own
// output before its first question, not again on stderr.
func TestEarlierJournalSaidByEachFace(t *testing.T) {
	home := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "TMPDIR"} {
		t.Setenv(v, home)
	}
	left := osguard.Moved{From: "/old/state\x1b[2J/journal.jsonl", To: "/new/state/journal.jsonl", Err: osguard.ErrLeftBeside}
	run := func(term string, args ...string) (stdout, stderr string) {
		var out, errOut strings.Builder
		a := newApp(CLIEnv{Stdin: strings.NewReader("quit\n"), Stdout: &out, Stderr: &errOut,
			Getenv: func(k string) string { return map[string]string{"TERM": term}[k] }})
		a.moveEarlier = func() []osguard.Moved { return []osguard.Moved{left} }
		a.execute(args)
		return out.String(), errOut.String()
	}
	shown := safetext.Shown(left.From)
	for _, c := range []struct {
		name, term string
		args       []string
	}{{"a command", "xterm", []string{"key", "list"}}, {"the console", "xterm", nil}} {
		_, stderr := run(c.term, c.args...)
		if strings.Count(stderr, shown) != 1 || !strings.Contains(stderr, "quit the earlier svcwallet if one is still open") || !strings.Contains(stderr, `lines name it after "quote_id"`) || strings.Contains(stderr, "\x1b") {
			t.Errorf("%s: stderr says the journal left beside other than once, escaped, with quit:\n%q", c.name, stderr)
		}
	}
	stdout, stderr := run("dumb")
	if strings.Contains(stderr, "/old/state") {
		t.Errorf("plain mode says the journal left beside on stderr too:\n%s", stderr)
	}
	if said, asked := strings.Index(stdout, shown), strings.Index(stdout, "How do you log in?"); said < 0 || asked < 0 || said > asked {
		t.Errorf("plain mode does not say the journal left beside before its first question:\n%s", stdout)
	}
}

// TestEarlierJournalNotMovedSaysWhy: a journal whose move failed is said on
// stderr with the system's reason and what then happens (the next run moves
// it once nothing stops it), never as beside a journal in use with the
// advice to move it elsewhere, where it would stay unseen for good.
func TestEarlierJournalNotMovedSaysWhy(t *testing.T) {
	home := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "TMPDIR"} {
		t.Setenv(v, home)
	}
	cause := &os.LinkError{Op: "link", Old: "/old/state\x1b[2J/journal.jsonl", New: "/new/state/journal.jsonl", Err: syscall.EPERM}
	left := osguard.Moved{From: "/old/state\x1b[2J/journal.jsonl", To: "/new/state/journal.jsonl", Err: &osguard.NotMovedError{Cause: cause}}
	var out, errOut strings.Builder
	a := newApp(CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		Getenv: func(k string) string { return map[string]string{"TERM": "xterm"}[k] }})
	a.moveEarlier = func() []osguard.Moved { return []osguard.Moved{left} }
	a.execute([]string{"key", "list"})
	stderr := errOut.String()
	for _, want := range []string{safetext.Shown(left.From) + ", a withdrawal journal an earlier version wrote, could not be moved to /new/state/journal.jsonl (link: operation not permitted)",
		"not seen by the check that a withdrawal is sent once", "the next run moves it once nothing stops it"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "move that file elsewhere") || strings.Contains(stderr, "is the journal now") || strings.Contains(stderr, "\x1b") {
		t.Errorf("a journal not moved is said as one beside the journal in use, or unescaped:\n%q", stderr)
	}
}
