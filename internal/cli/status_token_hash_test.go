package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusReadsQuotedHashes: a CSV export's column of payout hashes
// ("0x…", one a line, CRLF) and a hash in brackets or ending a sentence,
// given to status -, are found as the hashes alone; they were refused
// whole as a private key's shape. A line of several columns is said to
// hold one id a line, not a key's shape; a key quoted so is still refused
// and never repeated nor asked.
func TestStatusReadsQuotedHashes(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	done := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.clock.Advance(sandbox.DefaultSettle)
	w := r.settledJSON(t, done)
	onBoard(t, w)
	r.takeAsks()
	for _, line := range []string{`"%s",`, `'%s'`, `(%s).`, `["%s"]`} {
		r.runStdin(strings.ReplaceAll(line, "%s", w.WithdrawTxHash)+"\r\n", "-").want(t, exitCompleted, []string{done}, nil)
	}
	if n := len(r.takeAsks()); n != 4 {
		t.Errorf("%d status requests, want the quote id's, once a run", n)
	}
	r.runStdin(`"`+w.WithdrawTxHash+`","`+w.WithdrawTxHash+"\"\r\n", "-").want(t, exitUsage, nil, []string{follow.ErrHashAmongText.Error(), "give one id a line"})
	key := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	res := r.runStdin(`"`+key+"\",\r\n", "-")
	res.want(t, exitUsage, nil, []string{"the shape of a private key"})
	if n := len(r.takeAsks()); n != 0 || strings.Contains(res.stdout+res.stderr, key[:8]) {
		t.Errorf("%d status requests for lines refused, or the key was repeated:\n%s", n, res.stderr)
	}
}
