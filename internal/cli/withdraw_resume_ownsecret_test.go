package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawResumeOwnAPIKeyNeverRepeated: the session's API key given
// to withdraw resume as a quote id is refused (exit 2) and never said
// back: it was printed in "no withdrawal KEY of this account", beside a
// `svcwallet status KEY` to run.
func TestWithdrawResumeOwnAPIKeyNeverRepeated(t *testing.T) {
	r := newJournalingRig(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...).want(t, exitCompleted, "Withdrawal accepted")
	for _, args := range [][]string{{"resume", sandbox.DemoAPIKey}, {"resume", sandbox.DemoAPIKey, "--json"}} {
		res := r.runWithdraw(withdrawRunOpts{}, args...)
		if res.code != exitUsage || !strings.Contains(res.stderr+res.stdout, follow.ErrOwnSecretGiven.Error()) || strings.Contains(res.stdout+res.stderr, sandbox.DemoAPIKey) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, the key not repeated", args, res.code, res.stdout, res.stderr)
		}
	}
}
