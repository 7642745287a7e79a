package board

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestBoardFindsEveryWithdrawalOfAPayoutHash: a payout hash two
// withdrawals seen here share puts both on the board and says they are
// two; one of a row the board followed as another login names that
// account. The last one learned alone was added, the other unsaid.
func TestBoardFindsEveryWithdrawalOfAPayoutHash(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	shared, held := "0x"+strings.Repeat("4f", 32), "0x"+strings.Repeat("5e", 32)
	br.b.known.AddWithdrawal(exchange.Withdrawal{QuoteID: "q-paid-x", WithdrawTxHash: shared})
	br.b.known.AddWithdrawal(exchange.Withdrawal{QuoteID: "q-paid-y", WithdrawTxHash: shared})
	other := "0x" + strings.Repeat("7a", 20)
	br.b.put([]follow.Kept{{QuoteID: "q-held", As: other, Record: &exchange.Withdrawal{QuoteID: "q-held", WithdrawTxHash: held}}})
	br.toasts = nil
	br.run(br.b.addText(shared))
	_, x := br.b.rows["q-paid-x"]
	_, y := br.b.rows["q-paid-y"]
	if !x || !y || len(br.toasts) != 1 || !strings.Contains(br.toasts[0], "is 2 withdrawals, paid out together: q-paid-x, q-paid-y") {
		t.Errorf("a payout hash two withdrawals share: on the board %t, %t; said %q", x, y, br.toasts)
	}
	br.toasts = nil
	br.run(br.b.addText(held))
	if len(br.toasts) != 1 || !strings.Contains(br.toasts[0], "is withdrawal q-held, which the watch board followed as account "+other) {
		t.Errorf("a payout hash of a row another login followed: said %q", br.toasts)
	}
}
