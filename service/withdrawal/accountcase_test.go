package withdrawal_test

import (
	"context"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestSettledAsItsAccountInAnyCase: a withdrawal journaled with the
// account id in one letter case of its address is the session's own when
// the service answers another case (exchange.SameAccountID): it is settled,
// not refused as another account's.
func TestSettledAsItsAccountInAnyCase(t *testing.T) {
	r := newRig(t, 0, false)
	_, rec := r.lostWithdrawal()
	r.holding.Store(false)
	rec.AccountID = "0x" + strings.ToUpper(sandbox.DemoAccountID[2:])
	if settled := r.withdrawer().Settle(context.Background(), rec); settled.Outcome != withdrawal.SettledAccepted {
		t.Fatalf("journaled as %s, settled on %s's session: %+v", rec.AccountID, sandbox.DemoAccountID, settled)
	}
}
