package screens

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

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
	s, ok := push.Screen.(*statusScreen)
	if !ok {
		t.Fatalf("pushed %T, want *Status", push.Screen)
	}
	timed(s)
	screentest.Drive(s, s.Init())
	bodies := r.WithdrawBodies()
	if len(bodies) != 1 || s.phase != phaseFollow {
		t.Fatalf("%d withdraw requests, phase %v; want the journaled one re-sent and followed", len(bodies), s.phase)
	}
}

// TestResumeRefusedButExecutedIsFollowed: the re-send of an unanswered
// request is refused (the quote expired by the service's word), yet the
// first send had executed: the status decides, and the withdrawal is
// followed instead of being called "nothing paid".
func TestResumeRefusedButExecutedIsFollowed(t *testing.T) {
	r := screentest.NewStatusRig(t)
	start := r.Balance()
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	if _, err := r.App.Client().Withdraw(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	rec := r.Intent(req, in) // journaled, its answer lost
	expired := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusGone)
		_, _ = w.Write([]byte(`{"code":3103,"message":"quote expired","status":410}`))
	})
	r.WithdrawAnswer.Store(&expired)
	s := NewResume(r.App, rec).(*statusScreen)
	timed(s)
	screentest.Drive(s, s.Init())
	if s.phase != phaseFollow || s.follow.Last.State != service.StateSubmitted {
		t.Fatalf("phase %v, state %q, rejected %q; want it followed as SUBMITTED", s.phase, s.follow.Last.State, s.rejected)
	}
	if got := r.Record(req.QuoteID); got.Error != "" || got.State == "" {
		t.Errorf("journal %+v: a paid withdrawal was recorded as refused", got)
	}
	if !r.Balance().Equal(start.Sub(in.PayAmount)) {
		t.Errorf("balance %s, want one debit from %s", r.Balance(), start)
	}
}

// TestStatusStopsOnExpiredUnexecutedQuote: a quote that was never executed
// stays CREATED forever; once it can no longer be executed, following it
// stops and says nothing was paid.
func TestStatusStopsOnExpiredUnexecutedQuote(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, _ := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	s := newStatus(r.App, req.QuoteID, false)
	s.SetSize(100, 40)
	timers := timed(s)
	screentest.Drive(s, s.Init())
	if !s.polling() || len(*timers) == 0 {
		t.Fatal("a fresh CREATED quote is not followed")
	}
	r.Clock.Advance(service.StaleQuoteAfter + time.Second)
	*timers = nil
	screentest.Drive(s, s.fetch())
	if s.polling() || len(*timers) != 0 {
		t.Fatalf("still polling an expired unexecuted quote (%d timers)", len(*timers))
	}
	if !strings.Contains(ansi.Strip(s.View()), "expired without being executed") {
		t.Errorf("no explanation:\n%s", ansi.Strip(s.View()))
	}
}
