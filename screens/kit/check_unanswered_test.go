package kit_test

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestCheckQuietOnNotFoundYet: a request sent with no answer that the
// service does not know so far is NOT FOUND YET, which Home's line about
// the unfinished withdrawal already covers; the check said it as an
// error, as it says an accepted withdrawal the service no longer knows.
func TestCheckQuietOnNotFoundYet(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	req.QuoteID = "q-answer-lost" // unknown to the service so far
	r.Intent(req, in)
	timers := screentest.RecordTimers(r.App)
	start := r.App.StartCheck(records(t, r))
	if r.App.Checking() != 1 {
		t.Fatalf("checking %d of 1", r.App.Checking())
	}
	if said := runCheck(t, r, timers, start); said != nil {
		t.Errorf("the check said %v", screentest.RunCmdSync(t, said))
	}
}
