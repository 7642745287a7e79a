package withdraw

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestBridgeConfirmAfterTheRecordMoved: a confirmation made after the
// recorded address changed again records nothing, and the console says
// so in its own words (the domain's fact, and going back to review).
func TestBridgeConfirmAfterTheRecordMoved(t *testing.T) {
	app, h, now := hostileApp(t, false)
	signAndSend(t, hostileReview(t, app, now))
	*now = now.Add(48 * time.Hour)
	h.set(attackerBridge, 0)
	r := hostileReview(t, app, now)
	_, cmd := screentest.Press(r, "c")
	confirm, ok := screentest.PushedScreen(cmd).(*bridgeConfirmScreen)
	if !ok {
		t.Fatal("c did not open the confirm screen")
	}
	confirm.SetSize(100, 30)
	const third = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
	if err := withdrawal.ConfirmBridge(app.Target.Env, app.Target.BridgePins(), sandbox.BridgeFundingAddress, third, *now); err != nil {
		t.Fatal(err)
	}
	_, cmd = screentest.Press(confirm, "Y")
	if cmd == nil {
		t.Fatal("Y did not confirm")
	}
	confirm.Update(cmd())
	flat := strings.Join(strings.Fields(ansi.Strip(confirm.View())), " ")
	for _, want := range []string{"Not recorded", "changed to " + third + " while this screen was open", "go back and review the withdrawal again"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the confirm screen lacks %q:\n%s", want, flat)
		}
	}
	if _, err := withdrawal.CheckBridge(app.Target.Env, app.Target.BridgePins(), third, *now); err != nil {
		t.Fatalf("the record moved meanwhile was replaced: %v", err)
	}
}
