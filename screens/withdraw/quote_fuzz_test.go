package withdraw

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
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// FuzzQuoteView: whatever quote the service layer accepts (the smallest
// and largest amounts, a zero fee, fee_usd missing, slow, expiring now,
// already expired or at the bound, a converting payout, a quote id of 128
// characters, a Solana destination), the quote step's whole frame at
// 120x40, 80x24 and 60x20 keeps what is paid, what is received and where.
func FuzzQuoteView(f *testing.F) {
	long := "q-" + strings.Repeat("mzq7-", 25) + "x"
	for _, s := range []struct {
		id, pay, receive, fee, feeUSD, speed, out string
		expires                                   int64
		solana                                    bool
	}{
		{"q-1", "25", "23.5", "1.5", "1.5", "fast", "USDT", 60, false},
		{"q-1", "0.000002", "0.000001", "0.000001", "", "slow", "USDT", 0, false},
		{"q-1", "999999999999.999999", "999999999998.999999", "1", "1", "fast", "USDC", 600, true},
		{long, "25", "25", "0", "0", "slow", "USDC", -30, false},
		{long, "1000000", "990000.123456", "9999.876544", "9999.88", "slow", "USDT", 5, true},
	} {
		f.Add(s.id, s.pay, s.receive, s.fee, s.feeUSD, s.speed, s.out, s.expires, s.solana)
	}
	f.Fuzz(func(t *testing.T, id, pay, receive, fee, feeUSD, speed, out string, expires int64, solana bool) {
		rig := screentest.NewStatusRig(t)
		body, _ := json.Marshal(map[string]any{"quote_id": id, "pay_amount": pay, "receive_amount": receive, "fee": fee,
			"fee_usd": feeUSD, "speed": speed, "expires_at": screentest.RigStart.Add(time.Duration(expires) * time.Second).Format(time.RFC3339)})
		rig.Bodies.Store(exchange.PathWithdrawalQuote, body)
		route, to := screentest.Arbitrum, sandbox.DestCompleted
		if solana {
			route, to = exchange.WithdrawalRoute{Chain: "SOLANA", ChainID: "solana", ChainType: exchange.ChainTypeSolana, TokensOut: []string{"USDT", "USDC"}}, sandbox.DestSolana
		}
		amount, err := decimal.NewFromString(pay)
		if err != nil {
			return
		}
		q, err := rig.App.Client().Quote(context.Background(), exchange.QuoteRequest{ToAddress: to, Chain: route.Chain, TokenIn: exchange.TokenUSDT, TokenOut: out, Amount: pay})
		if err != nil {
			return // refused: no screen sees it
		}
		w := withdrawal.Choice{TokenIn: exchange.TokenUSDT, TokenOut: out, Route: route, ToAddress: to, Amount: amount}
		for _, size := range screentest.GoldenSizes {
			s := newQuote(rig.App, w)
			root := tui.New(s, tui.Options{Theme: "dark", Common: rig.App.Common})
			root.Init() // its request is not run: the answer below stands in for it
			screentest.Feed(root, tea.WindowSizeMsg{Width: size.W, Height: size.H})
			screentest.Feed(root, quoteMsg{seq: s.seq, quote: withdrawal.PricedQuote{Quote: q}})
			view := ansi.Strip(screentest.CheckFrame(t, root.View().Content, size.W, size.H))
			flat := strings.Join(strings.Fields(view), "")
			for _, want := range []string{q.PayAmount.String() + "USDT", q.ReceiveAmount.String() + out + "on" + route.Chain, to} {
				if !strings.Contains(flat, want) {
					t.Fatalf("%dx%d: %q is not on screen:\n%s", size.W, size.H, want, view)
				}
			}
		}
	})
}
