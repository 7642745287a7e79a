package withdraw

import (
	"context"
	"testing"

	"svcwallet/screens/screentest"
	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/tui"
)

// TestLostWithdrawalIsNeverSignedAgain: when the outcome of a withdraw is
// unknown, the review hands the journaled request to the resume screen and
// leaves the quote behind, so the same quote cannot be signed again with
// another nonce (the service would take that as a second withdrawal).
func TestLostWithdrawalIsNeverSignedAgain(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := service.JournalRecord{QuoteID: req.QuoteID, Request: req, Intent: in}
	review := &reviewScreen{app: r.App}
	msgs := screentest.SequenceMsgs(t, review.executed(executedMsg{service.Sent{Err: context.DeadlineExceeded, Lost: &rec}}))
	if len(msgs) < 2 {
		t.Fatalf("messages %v", msgs)
	}
	if _, ok := msgs[0].(tui.ResetMsg); !ok {
		t.Fatalf("first %T, want a reset that drops the quote and review", msgs[0])
	}
	push, ok := msgs[1].(tui.PushMsg)
	if !ok {
		t.Fatalf("second %T, want the resume screen", msgs[1])
	}
	timers := screentest.RecordTimers(r.App)
	s := push.Screen
	screentest.Drive(s, s.Init())
	if bodies := r.WithdrawBodies(); len(bodies) != 1 || s.Title() != "Withdrawal SUBMITTED" || len(*timers) != 1 {
		t.Fatalf("%d withdraw requests, %q, %d timers; want the journaled one re-sent and followed", len(bodies), s.Title(), len(*timers))
	}
}
