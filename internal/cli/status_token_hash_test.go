package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusReadsQuotedHashes: a CSV export's column of payout hashes
// ("0x…", one a line, CRLF) and a hash in brackets or ending a sentence,
// given to status - or as arguments, are found as the hashes alone; they
// were refused whole as a private key's shape. A row of the same hash in
// two columns gives it, one of two different ids is refused as which is
// meant is not guessed, never as a key's shape; a key quoted so is still
// refused and never repeated nor asked.
func TestStatusReadsQuotedHashes(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	done, w := r.paidOut(t)
	onBoard(t, w)
	r.takeAsks()
	for _, line := range []string{`"%s",`, `'%s'`, `(%s).`, `["%s"]`} {
		r.runStdin(strings.ReplaceAll(line, "%s", w.WithdrawTxHash)+"\r\n", "-").want(t, exitCompleted, []string{done}, nil)
	}
	if n := len(r.takeAsks()); n != 4 {
		t.Errorf("%d status requests, want the quote id's, once a run", n)
	}
	// As arguments: copied from a sentence or a list, the shell leaves the punctuation.
	for _, arg := range []string{w.WithdrawTxHash + ",", "(" + w.WithdrawTxHash + ").", `"` + w.WithdrawTxHash + `",`} {
		r.run(nil, arg).want(t, exitCompleted, []string{done}, nil)
	}
	if n := len(r.takeAsks()); n != 3 {
		t.Errorf("%d status requests for hashes given as arguments, want the quote id's, once a run", n)
	}
	// A row of the same id twice gives it; of two different ids, neither.
	r.runStdin(`"`+w.WithdrawTxHash+`","`+w.WithdrawTxHash+"\"\r\n", "-").want(t, exitCompleted, []string{done}, nil)
	r.runStdin(`"`+w.WithdrawTxHash+`","`+done+"\"\r\n", "-").want(t, exitUsage, nil, []string{"line 1 holds 2 different ids, in columns 1 and 2", "not guessed"})
	if n := len(r.takeAsks()); n != 1 {
		t.Errorf("%d status requests for a row of one id twice and one of two ids, want the one's", n)
	}
	key := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	for _, res := range []statusRun{r.runStdin(`"`+key+"\",\r\n", "-"), r.run(nil, `"0x`+key+`"x`), r.run(nil, `("`+key+`"),`)} {
		res.want(t, exitUsage, nil, nil)
		if !strings.Contains(res.stderr, "the shape of a private key") && !strings.Contains(res.stderr, "refusing a private key") ||
			strings.Contains(res.stdout+res.stderr, key[:8]) {
			t.Errorf("a quoted key not refused as one, or repeated:\n%s", res.stderr)
		}
	}
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests for keys refused", n)
	}
}
