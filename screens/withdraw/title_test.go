package withdraw

import (
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestBridgeConfirmTitleOnce: the confirm screen's title is in the status
// bar, and the body does not repeat it as a heading.
func TestBridgeConfirmTitleOnce(t *testing.T) {
	r := screentest.NewStatusRig(t)
	s := newBridgeConfirm(r.App, withdrawal.BridgeChangedError{Env: r.App.Target.Env.Name, Expected: sandbox.BridgeFundingAddress,
		Seen: attackerBridge, Since: screentest.Now.Add(-40 * 24 * time.Hour)})
	screentest.RequireTitleOnce(t, screentest.RootFrame(s, r.App), "The bridge funding address changed")
}
