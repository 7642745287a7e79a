package board

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// TestBoardRowSaysNoAmountItWasNotGiven: a status record without a receive
// amount (SPEC.md §2.10 names it; the service layer reads it missing as
// zero) is drawn without one, as the status screen draws it: the row said
// "0 USDT" would be received. One given is drawn with its token.
func TestBoardRowSaysNoAmountItWasNotGiven(t *testing.T) {
	b := New(screentest.NewStatusRig(t).App).(*boardScreen)
	for receive, want := range map[string]string{"0": "—", "23.5": "23.5 USDT"} {
		r := &boardRow{Followed: follow.Followed{Follow: follow.Follow{QuoteID: "q-1", Known: true,
			Last: exchange.Withdrawal{QuoteID: "q-1", State: exchange.StateSubmitted, Chain: "ARBITRUM", TokenOut: exchange.TokenUSDT, ReceiveAmount: decimal.RequireFromString(receive)}}}}
		if got := b.row(r).Cells[2]; got != want {
			t.Errorf("a record receiving %s: the row says %q, want %q", receive, got, want)
		}
	}
}
