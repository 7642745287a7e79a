package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"

	"svcwallet/screens/kit"
	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/tui"
)

// feed hands msg to the root and runs what follows, timers excepted (the
// screens here schedule none that matter to the frame).
func feed(root *tui.Model, msg tea.Msg) {
	_, cmd := root.Update(msg)
	for _, m := range runAll(cmd) {
		feed(root, m)
	}
}

// goldenFrames checks the whole frame (status bar, content, footer) of root
// at 80x24 and 120x40 against the goldens, without escapes, and returns the
// raw frames.
func goldenFrames(t *testing.T, root *tui.Model) map[string]string {
	t.Helper()
	raw := map[string]string{}
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		name := fmt.Sprintf("%dx%d", sz.w, sz.h)
		feed(root, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
		frame := root.View().Content
		lines := strings.Split(frame, "\n")
		if len(lines) != sz.h {
			t.Errorf("%s: %d lines", name, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w > sz.w {
				t.Errorf("%s: line %d is %d wide", name, i, w)
			}
		}
		raw[name] = frame
		t.Run(name, func(t *testing.T) { golden.RequireEqual(t, []byte(ansi.Strip(frame))) })
	}
	return raw
}

// TestStatusGolden: a completed withdrawal of the user's, followed from
// SUBMITTED, with its journaled intent, timeline, payout hash and explorer
// link (a production environment, so the default arbiscan template).
func TestStatusGolden(t *testing.T) {
	now := stT0
	clock := func() time.Time { return now }
	env := service.Environment{Name: "production", AuthURL: "https://auth.example", BaseURL: "https://api.example",
		MarketDataURL: "https://md.example", ChainID: 325}
	app := &kit.App{Deps: kit.Deps{Common: tui.NewCommon(true, clock), Getenv: func(string) string { return "" }},
		Session: kit.Session{Target: kit.Target{Env: env, Client: service.New(env, service.Options{Now: clock})}}}
	const id = "q-7mzq4d2kxw5v3c6hbf2ytjnr1e"
	s := newStatus(app, id, true)
	timed(s)
	root := tui.New(s, tui.Options{Theme: "dark", Common: app.Common})
	root.Init() // its request is not run: the answers below stand in for it
	feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})

	pay := decimal.RequireFromString("250")
	in := &service.Intent{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM", TokenIn: service.TokenUSDT, TokenOut: service.TokenUSDT,
		PayAmount: pay, ReceiveAmount: decimal.RequireFromString("248.5"), ExpiresAt: stT0.Add(time.Minute)}
	w := service.Withdrawal{QuoteID: id, TxID: "tx-4k2j8h6g5f3d1s9a7p0o", Chain: "ARBITRUM", TokenOut: service.TokenUSDT,
		ReceiveAmount: in.ReceiveAmount}
	const hash = "0x5f0c9e1b7a3d4c2e8f6a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"
	for i, step := range []struct {
		at, updated time.Duration
		state       string
	}{{time.Second, 0, service.StateSubmitted}, {4 * time.Second, 3 * time.Second, service.StateSending}, {7 * time.Second, 6 * time.Second, service.StateCompleted}} {
		now = stT0.Add(step.at)
		w.State, w.UpdatedAt = step.state, stT0.Add(step.updated)
		m := statusMsg{tag: s.tag, w: w}
		if step.state == service.StateCompleted {
			m.w.WithdrawTxHash = hash
		}
		if i == 0 {
			m.seeded, m.journal = true, []service.JournalEntry{
				{Time: stT0.Add(-2 * time.Second), Kind: service.JournalIntent, QuoteID: id, Intent: in},
				{Time: stT0, Kind: service.JournalAccepted, QuoteID: id},
			}
		}
		feed(root, m)
	}
	raw := goldenFrames(t, root)
	link := "https://arbiscan.io/tx/" + hash
	if !strings.Contains(raw["120x40"], ansi.SetHyperlink(link)) {
		t.Errorf("no OSC 8 link to %s in the frame", link)
	}
}

// TestHistoryGolden: the journal's withdrawals of the account, unfinished
// ones marked, the selected one in full.
func TestHistoryGolden(t *testing.T) {
	r := newStRig(t)
	historyEntries(t, r)
	root := tui.New(newHistory(r.app), tui.Options{Theme: "dark", Common: r.app.Common})
	feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, m := range runAll(root.Init()) {
		feed(root, m)
	}
	feed(root, tea.KeyPressMsg{Code: tea.KeyDown})
	feed(root, tea.KeyPressMsg{Code: tea.KeyDown}) // the refused one, with its reason
	goldenFrames(t, root)
}
