package status

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/tui"
)

// TestStatusGolden: a completed withdrawal of the user's, followed from
// SUBMITTED, with its journaled intent, timeline, payout hash and explorer
// link (a production environment, so the default arbiscan template).
func TestStatusGolden(t *testing.T) {
	now := screentest.RigStart
	clock := func() time.Time { return now }
	env := config.Environment{Name: "production", AuthURL: "https://auth.example", BaseURL: "https://api.example",
		MarketDataURL: "https://md.example", ChainID: 325}
	app := &kit.App{Deps: kit.Deps{Common: tui.NewCommon(true, clock), Getenv: func(string) string { return "" }},
		Session: kit.Session{Target: target.Target{Env: env, Client: exchange.New(env, exchange.Options{Now: clock})}}}
	const id = "q-7mzq4d2kxw5v3c6hbf2ytjnr1e"
	s := newStatus(app, id)
	screentest.RecordTimers(s.app)
	root := tui.New(s, tui.Options{Theme: "dark", Common: app.Common})
	root.Init() // its request is not run: the answers below stand in for it
	screentest.Feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})

	pay := decimal.RequireFromString("250")
	in := &journal.Intent{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM", TokenIn: exchange.TokenUSDT, TokenOut: exchange.TokenUSDT,
		PayAmount: pay, ReceiveAmount: decimal.RequireFromString("248.5"), ExpiresAt: screentest.RigStart.Add(time.Minute)}
	w := exchange.Withdrawal{QuoteID: id, TxID: "tx-4k2j8h6g5f3d1s9a7p0o", Chain: "ARBITRUM", TokenOut: exchange.TokenUSDT,
		ReceiveAmount: in.ReceiveAmount}
	const hash = "0x5f0c9e1b7a3d4c2e8f6a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"
	for i, step := range []struct {
		at, updated time.Duration
		state       string
	}{{time.Second, 0, exchange.StateSubmitted}, {4 * time.Second, 3 * time.Second, exchange.StateSending}, {7 * time.Second, 6 * time.Second, exchange.StateCompleted}} {
		now = screentest.RigStart.Add(step.at)
		w.State, w.UpdatedAt = step.state, screentest.RigStart.Add(step.updated)
		m := statusMsg{tag: s.tag, w: w}
		if step.state == exchange.StateCompleted {
			m.w.WithdrawTxHash = hash
		}
		if i == 0 {
			m.seeded, m.journal = true, []journal.Entry{
				{Time: screentest.RigStart.Add(-2 * time.Second), Kind: journal.KindIntent, QuoteID: id, Intent: in},
				{Time: screentest.RigStart, Kind: journal.KindAccepted, QuoteID: id},
			}
		}
		screentest.Feed(root, m)
	}
	raw := screentest.GoldenFrames(t, root, nil)
	link := "https://arbiscan.io/tx/" + hash
	if !strings.Contains(raw["120x40"], ansi.SetHyperlink(link)) {
		t.Errorf("no OSC 8 link to %s in the frame", link)
	}
	// At 60x20 the explorer's link (o opens it) and the blank lines give
	// way, so the timeline, the state's end and the last check are seen.
	for size, want := range map[string][]string{"60x20": {"Final state: no more checks", "COMPLETED   10:00:07"}, "120x40": {"Final state", "Explorer", "Timeline"}} {
		for _, w := range want {
			if !strings.Contains(ansi.Strip(raw[size]), w) {
				t.Errorf("%s: %q is not seen:\n%s", size, w, ansi.Strip(raw[size]))
			}
		}
	}
}
