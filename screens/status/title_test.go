package status

import (
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestTitleAppearsOnce: the status screen's title is in the top bar, and
// the body does not repeat it as a heading.
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
		pollToEnd(t, r, s, 70)
		screentest.RequireTitleOnce(t, screentest.RootFrame(s, r.App), "Withdrawal EXPIRED")
	})
}
