package screens

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/tui"
)

// sequenceMsgs runs a tea.Sequence's commands in order and returns their
// messages (the sequence type is unexported: it is a slice of Cmds).
func sequenceMsgs(t *testing.T, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	v := reflect.ValueOf(cmd())
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		t.Fatalf("not a sequence: %T", v.Interface())
	}
	var out []tea.Msg
	for i := range v.Len() {
		if c := v.Index(i).Interface().(tea.Cmd); c != nil {
			out = append(out, c())
		}
	}
	return out
}

// TestLostWithdrawalIsNeverSignedAgain: when the outcome of a withdraw is
// unknown, the review hands the journaled request to the resume screen and
// leaves the quote behind, so the same quote cannot be signed again with
// another nonce (the service would take that as a second withdrawal).
func TestLostWithdrawalIsNeverSignedAgain(t *testing.T) {
	r := newStRig(t)
	req, in := r.signed(r.app.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := service.JournalRecord{QuoteID: req.QuoteID, Request: req, Intent: in}
	review := &reviewScreen{app: r.app}
	msgs := sequenceMsgs(t, review.executed(executedMsg{service.Sent{Err: context.DeadlineExceeded, Lost: &rec}}))
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
	drive(s, s.Init())
	bodies := r.withdrawBodies()
	if len(bodies) != 1 || s.phase != phaseFollow {
		t.Fatalf("%d withdraw requests, phase %v; want the journaled one re-sent and followed", len(bodies), s.phase)
	}
}

// TestResumeRefusedButExecutedIsFollowed: the re-send of an unanswered
// request is refused (the quote expired by the service's word), yet the
// first send had executed: the status decides, and the withdrawal is
// followed instead of being called "nothing paid".
func TestResumeRefusedButExecutedIsFollowed(t *testing.T) {
	r := newStRig(t)
	start := r.balance()
	req, in := r.signed(r.app.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	if _, err := r.app.Client().Withdraw(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	rec := r.intent(req, in) // journaled, its answer lost
	expired := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusGone)
		_, _ = w.Write([]byte(`{"code":3103,"message":"quote expired","status":410}`))
	})
	r.withdrawAnswer.Store(&expired)
	s := NewResume(r.app, rec).(*statusScreen)
	timed(s)
	drive(s, s.Init())
	if s.phase != phaseFollow || s.follow.Last.State != service.StateSubmitted {
		t.Fatalf("phase %v, state %q, rejected %q; want it followed as SUBMITTED", s.phase, s.follow.Last.State, s.rejected)
	}
	if got := r.record(req.QuoteID); got.Error != "" || got.State == "" {
		t.Errorf("journal %+v: a paid withdrawal was recorded as refused", got)
	}
	if !r.balance().Equal(start.Sub(in.PayAmount)) {
		t.Errorf("balance %s, want one debit from %s", r.balance(), start)
	}
}

// TestStatusStopsOnExpiredUnexecutedQuote: a quote that was never executed
// stays CREATED forever; once it can no longer be executed, following it
// stops and says nothing was paid.
func TestStatusStopsOnExpiredUnexecutedQuote(t *testing.T) {
	r := newStRig(t)
	req, _ := r.signed(r.app.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	s := newStatus(r.app, req.QuoteID, false)
	s.SetSize(100, 40)
	timers := timed(s)
	drive(s, s.Init())
	if !s.polling() || len(*timers) == 0 {
		t.Fatal("a fresh CREATED quote is not followed")
	}
	r.clock.Advance(service.StaleQuoteAfter + time.Second)
	*timers = nil
	drive(s, s.fetch())
	if s.polling() || len(*timers) != 0 {
		t.Fatalf("still polling an expired unexecuted quote (%d timers)", len(*timers))
	}
	if !strings.Contains(ansi.Strip(s.View()), "expired without being executed") {
		t.Errorf("no explanation:\n%s", ansi.Strip(s.View()))
	}
}
