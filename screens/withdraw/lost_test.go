package withdraw

import (
	"context"
	"testing"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// TestLostWithdrawalIsNeverSignedAgain: when the outcome of a withdraw is
// unknown, the review hands the journaled request to the resume screen and
// leaves the quote behind, so the same quote cannot be signed again with
// another nonce (the service would take that as a second withdrawal).
func TestLostWithdrawalIsNeverSignedAgain(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := journal.Record{QuoteID: req.QuoteID, Request: req, Intent: in}
	var resumed *journal.Record
	r.App.Makers.Resume = func(a *kit.App, rec journal.Record) tui.Screen {
		resumed = &rec
		return screentest.NewHome(a)
	}
	review := &reviewScreen{app: r.App}
	msgs := screentest.SequenceMsgs(t, review.executed(executedMsg{withdrawal.Sent{Err: context.DeadlineExceeded, Lost: &rec}}))
	if len(msgs) < 2 {
		t.Fatalf("messages %v", msgs)
	}
	if _, ok := msgs[0].(tui.ResetMsg); !ok {
		t.Fatalf("first %T, want a reset that drops the quote and review", msgs[0])
	}
	if _, ok := msgs[1].(tui.PushMsg); !ok {
		t.Fatalf("second %T, want the resume screen", msgs[1])
	}
	if resumed == nil || resumed.QuoteID != req.QuoteID || resumed.Request.Signature != req.Signature {
		t.Fatalf("resumed %+v, want the journaled request %+v", resumed, req)
	}
	if n := len(r.WithdrawBodies()); n != 0 {
		t.Fatalf("the review itself sent %d withdraw requests", n)
	}
}
