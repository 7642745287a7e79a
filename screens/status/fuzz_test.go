package status

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/tui"
)

// FuzzStatusView: whatever status record the service layer accepts (every
// state, fields missing, a zero or the largest amount, a quote id of 128
// characters, names of 64, an updated_at far from now), the status screen
// draws it at 120x40, 80x24 and 60x20 without a crash, within its width,
// with the amount it receives and the chain it goes to on screen, whole;
// with the journal's request of it (an own withdrawal) and without. A
// screen taller than the frame scrolls (↓), saying what it hides below,
// so every line is read: at 60x20 ids of 128 characters with a long
// transfer id or a note that the record differs from what was signed cut
// the state's end.
func FuzzStatusView(f *testing.F) {
	long := strings.Repeat("L", 64)
	hash := "0x" + strings.Repeat("ab", 32)
	for _, s := range [][6]string{
		{exchange.StateCreated, "", "", "", "", ""},
		{exchange.StateSubmitted, "tx-1", "ARBITRUM", "USDT", "0", ""},
		{exchange.StateSending, "tx-1", "ARBITRUM", "USDC", "999999999999.999999", hash},
		{exchange.StateCompleted, strings.Repeat("t", 128), "ARBITRUM", "USDT", "0.000001", hash},
		{exchange.StateCompleted, "tx-1", "SOLANA", "USDT", "12", strings.Repeat("5", 88)},
		{exchange.StateFailed, "tx-1", long, long, "1", ""},
		{exchange.StateRefunded, "", "TRON", "USDT", "", ""},
		{exchange.StateCompleted, "tx-1", "TRON", "USDT", "10", strings.Repeat("ab", 32)},
	} {
		for _, own := range []bool{false, true} {
			f.Add(s[0], s[1], s[2], s[3], s[4], s[5], int64(-3600), own, false)
			f.Add(s[0], s[1], s[2], s[3], s[4], s[5], int64(-3600), own, true)
		}
	}
	f.Add(exchange.StateSending, "tx-1", "BASE", "USDT", "5", "", int64(0), true, false)
	f.Add(exchange.StateSending, "tx-1", "BASE", "USDT", "5", "", int64(1<<40), false, false)
	f.Fuzz(func(t *testing.T, state, txID, chain, tokenOut, amount, hash string, updated int64, own, longID bool) {
		rig := screentest.NewStatusRig(t)
		id := "q-7mzq4d2kxw5v3c6hbf2ytjnr1e"
		if longID {
			id = "q-" + strings.Repeat("mzq7-", 25) + "x" // the longest the service layer takes
		}
		rec := map[string]any{"quote_id": id, "state": state, "tx_id": txID, "chain": chain, "token_out": tokenOut}
		if amount != "" {
			rec["receive_amount"] = amount
		}
		if hash != "" {
			rec["withdraw_tx_hash"] = hash
		}
		if updated != 0 {
			rec["updated_at"] = screentest.RigStart.Add(time.Duration(updated) * time.Second).Format(time.RFC3339)
		}
		body, _ := json.Marshal(rec)
		rig.Bodies.Store(exchange.PathWithdrawalStatus, body)
		w, err := rig.App.Client().WithdrawalStatus(context.Background(), id)
		if err != nil {
			return // refused: no screen sees it
		}
		one := decimal.New(1, 0)
		var entries []journal.Entry
		if own {
			entries = []journal.Entry{{Time: screentest.RigStart.Add(-time.Minute), Kind: journal.KindIntent, QuoteID: id, Intent: &journal.Intent{
				ToAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", Chain: "ARBITRUM", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT,
				PayAmount: w.ReceiveAmount.Add(w.ReceiveAmount).Add(one), ReceiveAmount: one, ExpiresAt: screentest.RigStart}}}
		}
		for _, size := range screentest.GoldenSizes {
			s := newStatus(rig.App, id)
			root := tui.New(s, tui.Options{Theme: "dark", Common: rig.App.Common})
			root.Init() // its request is not run: the answer below stands in for it
			screentest.Feed(root, tea.WindowSizeMsg{Width: size.W, Height: size.H})
			screentest.Feed(root, statusMsg{tag: s.tag, w: w, journal: entries, seeded: true})
			view := ansi.Strip(screentest.CheckFrame(t, root.View().Content, size.W, size.H))
			// A screen taller than the frame says what it hides and ↓
			// shows it: what must be on screen is read over every frame.
			seen := view
			for range size.H {
				if !strings.Contains(view, "more line") {
					break
				}
				screentest.Feed(root, tea.KeyPressMsg{Code: tea.KeyDown})
				view = ansi.Strip(screentest.CheckFrame(t, root.View().Content, size.W, size.H))
				seen += view
			}
			flat := strings.Join(strings.Fields(seen), "")
			var said []string
			if !w.ReceiveAmount.IsZero() {
				said = append(said, w.ReceiveAmount.String())
			}
			if own {
				said = append(said, entries[0].Intent.ToAddress)
			}
			if chain != "" {
				said = append(said, chain)
			}
			// The state's end, or the next check (a CREATED one's depends on
			// its quote's expiry).
			switch {
			case exchange.Terminal(w.State):
				said = append(said, "Finalstate")
			case w.State != exchange.StateCreated:
				said = append(said, "Lastchecked")
			}
			for _, want := range said {
				if !strings.Contains(flat, want) {
					t.Fatalf("%dx%d: %q is not on screen:\n%s", size.W, size.H, want, view)
				}
			}
		}
	})
}
