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

// TestTallStatusScrolls: a status screen taller than the terminal in its
// shortest layout (ids of 128 characters and a note that the record differs from what
// was signed, at 60x20) says how many lines it
// hides below and above, ↓ and ↑ move it a line, and the footer offers
// each only while there is more that way; the next id typed (a board's
// row) stays in view, its hidden lines counted without naming ↑, which
// the field takes: its last line, the state's end, was cut unsaid.
func TestTallStatusScrolls(t *testing.T) {
	rig := screentest.NewStatusRig(t)
	id := "q-" + strings.Repeat("mzq7-", 25) + "x"
	body, _ := json.Marshal(map[string]any{"quote_id": id, "state": exchange.StateCompleted, "tx_id": strings.Repeat("t", 128),
		"chain": "ARBITRUM", "token_out": "USDT", "receive_amount": "1", "withdraw_tx_hash": "0x" + strings.Repeat("ab", 32)})
	rig.Bodies.Store(exchange.PathWithdrawalStatus, body)
	w, err := rig.App.Client().WithdrawalStatus(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	s := newStatus(rig.App, id)
	root := tui.New(s, tui.Options{Theme: "dark", Common: rig.App.Common})
	root.Init()
	screentest.Feed(root, tea.WindowSizeMsg{Width: 60, Height: 20})
	// Its own, signed for another amount: the screen notes the difference.
	own := []journal.Entry{{Time: screentest.RigStart.Add(-time.Minute), Kind: journal.KindIntent, QuoteID: id, Intent: &journal.Intent{
		ToAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", Chain: "ARBITRUM", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT,
		PayAmount: decimal.RequireFromString("3"), ReceiveAmount: decimal.RequireFromString("2"), ExpiresAt: screentest.RigStart}}}
	screentest.Feed(root, statusMsg{tag: s.tag, w: w, journal: own, seeded: true})
	press := func(code rune) string {
		screentest.Feed(root, tea.KeyPressMsg{Code: code})
		return ansi.Strip(screentest.CheckFrame(t, root.View().Content, 60, 20))
	}
	// Reached from the board, q starts the next id: its field, at the end,
	// is in view while it is typed, and esc leaves the screen as it was.
	s.look.board = true
	// ↑ moves the field's cursor then, not the screen: it is not named.
	if frame := press('q'); !strings.Contains(frame, "Next id") || !strings.Contains(frame, "3 lines above") || strings.Contains(frame, "↑") {
		t.Fatalf("the next id's field is out of view, or ↑ named while the field has the keys:\n%s", frame)
	}
	if frame := press(tea.KeyUp); !strings.Contains(frame, "Next id") {
		t.Fatalf("↑ moved the screen off the field:\n%s", frame)
	}
	press(tea.KeyEscape)
	for _, step := range []struct {
		key        rune
		says       string
		down, up   bool
		stateShown bool
	}{
		{tea.KeyUp, "↓ 2 more lines below", true, false, false},
		{tea.KeyDown, "↓ 1 more line below · ↑ 1 line above", true, true, false},
		{tea.KeyDown, "↑ 2 lines above", false, true, true},
		{tea.KeyDown, "↑ 2 lines above", false, true, true},
		{tea.KeyUp, "↓ 1 more line below · ↑ 1 line above", true, true, false},
	} {
		frame := press(step.key)
		if !strings.Contains(frame, step.says) || screentest.FooterOffers(frame, "↓") != step.down || screentest.FooterOffers(frame, "↑") != step.up ||
			strings.Contains(frame, "Final state") != step.stateShown {
			t.Fatalf("after %s: want %q, ↓ offered %v, ↑ %v, the state's end shown %v:\n%s", map[rune]string{tea.KeyUp: "↑", tea.KeyDown: "↓"}[step.key], step.says, step.down, step.up, step.stateShown, frame)
		}
	}
}
