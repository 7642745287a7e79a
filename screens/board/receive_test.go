package board

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
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

// TestBoardRowFillsFromWhatWasSigned: an own withdrawal whose record leaves
// out its receive amount and chain shows the journal's, starred (the
// legend's "from what was signed", follow.Follow.Filled, the rule the
// status screen, `status` and plain mode follow); another's shows "—" for
// both (follow.NoChain). The row said "—" where the status screen filled them. The star
// is on the number, which a narrow RECEIVE column keeps alone: "8.5 USDT*"
// was cut to "8.5", an amount the service never said.
func TestBoardRowFillsFromWhatWasSigned(t *testing.T) {
	b := New(screentest.NewStatusRig(t).App).(*boardScreen)
	b.sched.Know(follow.Own{"q-own": journal.Record{QuoteID: "q-own", Intent: journal.Intent{Chain: "BASE", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT,
		PayAmount: decimal.RequireFromString("10"), ReceiveAmount: decimal.RequireFromString("8.5")}}})
	for id, want := range map[string][2]string{"q-own": {"BASE*", "8.5* USDT"}, "q-other": {"—", "—"}} {
		r := &boardRow{Followed: follow.Followed{Follow: follow.Follow{QuoteID: id, Known: true,
			Last: exchange.Withdrawal{QuoteID: id, State: exchange.StateSubmitted, TokenOut: exchange.TokenUSDT}}}}
		if c := b.row(r).Cells; c[1] != want[0] || c[2] != want[1] {
			t.Errorf("%s: chain %q, receive %q; want %q, %q", id, c[1], c[2], want[0], want[1])
		}
	}
}
