package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawRoutesNotReadSaidAsSuch: a withdrawal info answer that
// cannot be read says the routes could not be read, never "no withdrawal
// routes", which reads as the service offering none.
func TestWithdrawRoutesNotReadSaidAsSuch(t *testing.T) {
	r := newJournalingRig(t)
	r.rewrite.Store(onlyPath(exchange.PathWithdrawalInfo, func([]byte) []byte { return []byte("not json") }))
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs("0x1111111111111111111111111111111111111111", "25", "--yes")...)
	res.want(t, exitError, "svcwallet withdraw: the withdrawal routes could not be read: ")
	if strings.Contains(res.stderr, "no withdrawal routes") {
		t.Errorf("said as no routes:\n%s", res.stderr)
	}
}

// TestWithdrawRouteListedInLowerCase: a route listing keyed usdt, its
// payout tokens in lower case, is the USDT route (exchange.TokenName, as
// the console draws it): the command line looked USDT up exactly and said
// no route.
func TestWithdrawRouteListedInLowerCase(t *testing.T) {
	r := newJournalingRig(t)
	r.rewrite.Store(onlyPath(exchange.PathWithdrawalInfo, func(b []byte) []byte {
		return []byte(strings.NewReplacer(`"USDT"`, `"usdt"`, `"USDC"`, `"usdc"`).Replace(string(b)))
	}))
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...).want(t, 0, "Withdrawal accepted")
}
