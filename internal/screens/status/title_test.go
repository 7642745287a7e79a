package status

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/sandbox"
	"github.com/svcwallet/svcwallet/internal/screens/screentest"
)

// TestTitleAppearsOnce: the status, history and board titles are in the
// top bar, and the body does not repeat them as a heading.
func TestTitleAppearsOnce(t *testing.T) {
	t.Run("status_completed", func(t *testing.T) {
		r := screentest.NewStatusRig(t)
		r.App.PollInterval = 2 * time.Second
		s := newStatus(r.App, r.Executed(sandbox.DestCompleted, "25"))
		pollToEnd(t, r, s, 10)
		if s.follow.Last.State != exchange.StateCompleted {
			t.Fatalf("state %s, want COMPLETED", s.follow.Last.State)
		}
		screentest.RequireTitleOnce(t, screentest.RootFrame(s, r.App), "Withdrawal COMPLETED")
	})
	t.Run("status_expired_unexecuted", func(t *testing.T) {
		r := screentest.NewStatusRig(t)
		r.App.PollInterval = 10 * time.Second
		req, _ := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
		s := newStatus(r.App, req.QuoteID)
		pollToEnd(t, r, s, 40)
		screentest.RequireTitleOnce(t, screentest.RootFrame(s, r.App), "Withdrawal EXPIRED")
	})
	t.Run("history", func(t *testing.T) {
		r := screentest.NewStatusRig(t)
		screentest.HistoryEntries(t, r)
		h := NewHistory(r.App).(*historyScreen)
		for _, m := range screentest.RunAll(h.Init()) {
			h.Update(m)
		}
		screentest.RequireTitleOnce(t, screentest.RootFrame(h, r.App), "Withdrawal history")
	})
	t.Run("board", func(t *testing.T) {
		r := screentest.NewStatusRig(t)
		br := newBoardRig(t, r)
		br.send(tea.PasteMsg{Content: screentest.Seed(t, r, sandbox.DestCompleted)})
		br.fire()
		screentest.RequireTitleOnce(t, screentest.RootFrame(br.b, r.App), "Watch board")
	})
}
