package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawAgainAfterFailedWarns: the attacker's reproduction. A
// withdrawal with --yes --wait ends FAILED (exit 1, debited); the same
// command again is warned on stderr that the FAILED one (its quote id)
// stays debited until support returns it and this one pays again, and
// goes on as --yes asks (a warning, as after a recent identical one);
// another amount draws none.
func TestWithdrawAgainAfterFailedWarns(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	args := withdrawArgs(sandbox.DestFailed, "25", "--max-fee", "2", "--yes", "--wait")
	res := r.runWithdraw(withdrawRunOpts{}, args...)
	res.want(t, exitFailed, "FAILED")
	first := quoteIDOf(t, res.stdout)
	if strings.Contains(res.stderr, "ended FAILED") {
		t.Errorf("the first withdrawal was warned of a FAILED one:\n%s", res.stderr)
	}
	r.wantBalance("9975")

	res = r.runWithdraw(withdrawRunOpts{}, args...)
	res.want(t, exitFailed, "warning: an identical withdrawal of 25 USDT to "+sandbox.DestFailed+" on ARBITRUM ("+first+"), made ",
		"ended FAILED: its funds stay debited until support returns them, and this one pays again")
	r.wantBalance("9950")

	res = r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestFailed, "24", "--max-fee", "2", "--yes")...)
	if strings.Contains(res.stderr, "ended FAILED") {
		t.Errorf("another amount was warned of the FAILED one:\n%s", res.stderr)
	}
}
