package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/screens/kit"
	"svcwallet/screens/screentest"
	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/tui"
)

// requireTitleOnce fails unless the frame's status bar names title and the
// rest of the frame does not repeat it.
func requireTitleOnce(t *testing.T, frame, title string) {
	t.Helper()
	plain := ansi.Strip(frame)
	bar, _, _ := strings.Cut(plain, "\n")
	if !strings.Contains(bar, title) {
		t.Errorf("the status bar does not name %q: %q", title, bar)
	}
	if n := strings.Count(plain, title); n != 1 {
		t.Errorf("%q appears %d times in the frame:\n%s", title, n, plain)
	}
}

// rootFrame draws screen s under a root model at 120x40.
func rootFrame(s tui.Screen, app *kit.App) string {
	app.Common.Status = app.Status
	root := tui.New(s, tui.Options{Theme: "dark", Common: app.Common})
	screentest.Feed(root, tea.WindowSizeMsg{Width: 120, Height: 40})
	return root.View().Content
}

// TestTitleAppearsOnce walks every screen of the console: its title is in
// the status bar, and the body does not repeat it as a heading.
func TestTitleAppearsOnce(t *testing.T) {
	consoleTitles := map[string]string{
		"login_apikey": "Log in", "login_wallet_error": "Log in",
		"home": "Home", "home_subaccount": "Home",
		"deposit_list": "Deposit addresses", "deposit_qr": "Deposit addresses", "deposit_nochain": "Deposit addresses",
		"withdraw_route":       "Withdraw: route",
		"withdraw_destination": "Withdraw: destination", "withdraw_lookalike": "Withdraw: destination",
		"withdraw_quote":  "Withdraw: quote",
		"withdraw_review": "Withdraw: review and sign",
	}
	for _, st := range consoleStates {
		t.Run(st.name, func(t *testing.T) {
			title, ok := consoleTitles[st.name]
			if !ok {
				t.Fatalf("no title known for the state %s: add it here", st.name)
			}
			c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
			st.reach(c)
			requireTitleOnce(t, c.View(), title)
		})
	}
	builderTitles := map[string]string{
		"form_empty": "Builder authorization", "form_filled_key": "Builder authorization",
		"review_authorize": "Builder: review and sign", "review_with_key": "Builder: review and sign",
		"result_with_key": "Builder authorized",
	}
	for _, st := range bldGoldenStates {
		t.Run("builder_"+st.name, func(t *testing.T) {
			title, ok := builderTitles[st.name]
			if !ok {
				t.Fatalf("no title known for the state %s: add it here", st.name)
			}
			r := newBldRig(t, 120, 40)
			st.reach(r)
			requireTitleOnce(t, r.View(), title)
		})
	}
	t.Run("builder_review_too_short", func(t *testing.T) {
		r := newBldRig(t, 120, 40)
		r.openForm()
		r.fill(sandbox.BuilderAddress, "0.1", "0.05", "")
		r.keySection("bot", sandbox.NoChainAddress)
		r.toReview()
		r.Send(tea.WindowSizeMsg{Width: 60, Height: 20})
		r.UntilShows("Enlarge the terminal")
		requireTitleOnce(t, r.View(), "Builder: review and sign")
	})
	t.Run("status_completed", func(t *testing.T) {
		r := screentest.NewStatusRig(t)
		r.App.PollInterval = 2 * time.Second
		s := newStatus(r.App, r.Executed(sandbox.DestCompleted, "25"), true)
		follow(t, r, s, 10)
		if s.follow.Last.State != service.StateCompleted {
			t.Fatalf("state %s, want COMPLETED", s.follow.Last.State)
		}
		requireTitleOnce(t, rootFrame(s, r.App), "Withdrawal COMPLETED")
	})
	t.Run("status_expired_unexecuted", func(t *testing.T) {
		r := screentest.NewStatusRig(t)
		r.App.PollInterval = 10 * time.Second
		req, _ := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
		s := newStatus(r.App, req.QuoteID, true)
		follow(t, r, s, 20)
		requireTitleOnce(t, rootFrame(s, r.App), "Withdrawal never executed: quote expired")
	})
	t.Run("history", func(t *testing.T) {
		r := screentest.NewStatusRig(t)
		historyEntries(t, r)
		h := newHistory(r.App)
		for _, m := range screentest.RunAll(h.Init()) {
			h.Update(m)
		}
		requireTitleOnce(t, rootFrame(h, r.App), "Withdrawal history")
	})
	t.Run("board", func(t *testing.T) {
		r := screentest.NewStatusRig(t)
		br := newBoardRig(t, r)
		br.send(tea.PasteMsg{Content: screentest.Seed(t, r, sandbox.DestCompleted)})
		br.fire()
		requireTitleOnce(t, rootFrame(br.b, r.App), "Watch board")
	})
	t.Run("bridge_confirm", func(t *testing.T) {
		r := screentest.NewStatusRig(t)
		s := newBridgeConfirm(r.App, service.BridgeChangedError{Env: r.App.Target.Env.Name, Expected: sandbox.BridgeFundingAddress,
			Seen: attackerBridge, Since: screentest.Now.Add(-40 * 24 * time.Hour)})
		requireTitleOnce(t, rootFrame(s, r.App), "The bridge funding address changed")
	})
}
