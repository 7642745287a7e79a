package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestRefusedIDShownEscaped: an id refused for a character it holds is
// repeated escaped (safetext.IDQuoted), as an argument, on standard input
// and by withdraw resume: cleaned, an escape sequence read as "" and an id
// holding a bidi override or a control as the well-formed id it is not.
func TestRefusedIDShownEscaped(t *testing.T) {
	r := newStatusRig(t)
	r.run(nil, "ab\u202ecd").want(t, exitUsage, nil, []string{`"ab\u202ecd" is not a quote id`})
	r.run(nil, "q\u20101").want(t, exitUsage, nil, []string{`"q\u20101" is not a quote id`})
	res := r.runStdin("q-ok\n\x1b]0;pwn\a\n", "-")
	res.want(t, exitUsage, nil, []string{`standard input line 2: "\x1b]0;pwn\a" is not a quote id`})
	// The ; is the escape sequence's, not a list's: one id a line it is.
	if strings.Contains(res.stderr, "give one id a line") {
		t.Errorf("an escape sequence's ; read as ids listed on one line:\n%s", res.stderr)
	}
	r.runStdin("q-ok\nbad\x01id\n", "-").want(t, exitUsage, nil, []string{`standard input line 2: "bad\x01id" is not a quote id`})
	r.runWithdraw(withdrawRunOpts{}, "resume", "q-1\u202e2").want(t, exitUsage, `"q-1\u202e2" is not a quote id`)
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests after refused ids, want none", n)
	}
}

// TestResumeWithoutJournalNamesItEscaped: withdraw resume with no journal
// names where it looked escaped (safetext.Shown): the state folder is the
// environment's, and cleaned, x NBSP y read as another folder, "x y".
func TestResumeWithoutJournalNamesItEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x\u00a0y")
	t.Setenv("XDG_STATE_HOME", dir)
	r := newStatusRig(t)
	res := r.runWithdraw(withdrawRunOpts{}, "resume", "q-okokok12")
	res.want(t, exitNotFound, `no withdrawal journal at "`+strings.ReplaceAll(dir, "\u00a0", `\u00a0`))
	if strings.Contains(res.stderr, "\u00a0") {
		t.Errorf("the path shown raw:\n%s", res.stderr)
	}
	// A journal there, without the id.
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...).want(t, exitCompleted)
	res = r.runWithdraw(withdrawRunOpts{}, "resume", "q-okokok12")
	res.want(t, exitNotFound, `in the journal "`+strings.ReplaceAll(dir, "\u00a0", `\u00a0`))
	if strings.Contains(res.stderr, "\u00a0") {
		t.Errorf("the path shown raw:\n%s", res.stderr)
	}
}
