package status

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

// TestStatusFillsFromWhatWasSigned: an own withdrawal whose record leaves
// out its receive amount and chain shows the journal's, marked as from what
// was signed (follow.Follow.Filled, the rule the board, `status` and plain
// mode follow); another's shows neither. It filled them unmarked.
func TestStatusFillsFromWhatWasSigned(t *testing.T) {
	rig := screentest.NewStatusRig(t)
	w := exchange.Withdrawal{QuoteID: "q-1", TxID: "tx-1", State: exchange.StateSubmitted, TokenOut: exchange.TokenUSDT}
	for _, own := range []bool{true, false} {
		var entries []journal.Entry
		if own {
			entries = []journal.Entry{{Time: screentest.RigStart.Add(-time.Minute), Kind: journal.KindIntent, QuoteID: "q-1", Intent: &journal.Intent{
				ToAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", Chain: "BASE", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT,
				PayAmount: decimal.RequireFromString("10"), ReceiveAmount: decimal.RequireFromString("8.5"), ExpiresAt: screentest.RigStart}}}
		}
		s := newStatus(rig.App, "q-1")
		root := tui.New(s, tui.Options{Theme: "dark", Common: rig.App.Common})
		root.Init()
		screentest.Feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})
		screentest.Feed(root, statusMsg{tag: s.tag, w: w, journal: entries, seeded: true})
		lines := map[string]string{}
		for l := range strings.Lines(ansi.Strip(root.View().Content)) {
			if f := strings.Fields(l); len(f) > 1 {
				lines[f[0]] = strings.Join(f[1:], " ")
			}
		}
		wantChain, wantReceive := "BASE (from what was signed)", "8.5 USDT (from what was signed)"
		if !own {
			wantChain, wantReceive = follow.NoChain, ""
		}
		if lines["Chain"] != wantChain || lines["Receive"] != wantReceive {
			t.Errorf("own %v: Chain %q, Receive %q; want %q, %q", own, lines["Chain"], lines["Receive"], wantChain, wantReceive)
		}
	}
}
