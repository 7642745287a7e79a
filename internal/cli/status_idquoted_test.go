package cli

import (
	"testing"
)

// TestRefusedIDShownEscaped: an id refused for a character it holds is
// repeated escaped (safetext.IDQuoted), as an argument, on standard input
// and by withdraw resume: cleaned, an escape sequence read as "" and an id
// holding a bidi override or a control as the well-formed id it is not.
func TestRefusedIDShownEscaped(t *testing.T) {
	r := newStatusRig(t)
	r.run(nil, "ab\u202ecd").want(t, exitUsage, nil, []string{`"ab\u202ecd" is not a quote id`})
	r.run(nil, "q\u20101").want(t, exitUsage, nil, []string{`"q\u20101" is not a quote id`})
	r.runStdin("q-ok\n\x1b]0;pwn\a\n", "-").want(t, exitUsage, nil, []string{`standard input line 2: "\x1b]0;pwn\a" is not a quote id`})
	r.runStdin("q-ok\nbad\x01id\n", "-").want(t, exitUsage, nil, []string{`standard input line 2: "bad\x01id" is not a quote id`})
	r.runWithdraw(withdrawRunOpts{}, "resume", "q-1\u202e2").want(t, exitUsage, `"q-1\u202e2" is not a quote id`)
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests after refused ids, want none", n)
	}
}
