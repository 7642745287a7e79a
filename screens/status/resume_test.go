package status

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestResumeResendsTheJournaledBody: a request journaled but never answered
// (a crash right after sending) is re-sent byte for byte while its quote is
// valid; the screen is Busy until the answer, which is journaled; the money
// moves once. Resuming the same record again gets the original 202 and
// moves nothing.
func TestResumeResendsTheJournaledBody(t *testing.T) {
	r := screentest.NewStatusRig(t)
	start := r.Balance()
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in)
	if rec.Answered || rec.Finished() {
		t.Fatalf("fresh intent is answered or finished: %+v", rec)
	}
	want, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}

	var txIDs []string
	for visit := range 2 {
		s := NewResume(r.App, rec).(*statusScreen)
		s.SetSize(100, 40)
		screentest.RecordTimers(s.app)
		cmd := s.Init()
		if s.Busy() == "" {
			t.Fatalf("visit %d: not Busy while the re-sent withdraw is out", visit)
		}
		screentest.Drive(s, cmd)
		if s.Busy() != "" || s.phase != phaseFollow || s.err != nil {
			t.Fatalf("visit %d: busy=%q phase=%v err=%v", visit, s.Busy(), s.phase, s.err)
		}
		txIDs = append(txIDs, s.follow.Last.TxID)
		if got := r.Balance(); !got.Equal(start.Sub(in.PayAmount)) {
			t.Fatalf("visit %d: balance %s, want %s − %s once", visit, got, start, in.PayAmount)
		}
	}
	bodies := r.WithdrawBodies()
	if len(bodies) != 2 {
		t.Fatalf("%d withdraw requests, want 2 (one per visit)", len(bodies))
	}
	for i, b := range bodies {
		if string(b) != string(want) {
			t.Errorf("re-send %d is not the journaled body:\n got %s\nwant %s", i, b, want)
		}
	}
	if txIDs[0] == "" || txIDs[0] != txIDs[1] {
		t.Errorf("transfer ids %v: the repeat must get the original answer", txIDs)
	}
	got := r.Record(req.QuoteID)
	if !got.Answered || got.State != exchange.StateSubmitted {
		t.Errorf("journal after re-send: %+v, want accepted", got)
	}
	// Each acceptance is journaled; SUBMITTED, which it implies, never again.
	if states := r.JournalStates(req.QuoteID); strings.Join(states, " ") != "accepted accepted" {
		t.Errorf("journaled %v, want one acceptance per re-send and no SUBMITTED line", states)
	}
}

// TestResumeExpiredUnknownToTheService: an unanswered request whose quote
// expired, past the margin by the service's clock, and which the service
// does not know (404) never happened: the journal says nothing was paid,
// and nothing more is asked.
func TestResumeExpiredUnknownToTheService(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	req.QuoteID = "q-never-reached-the-service"
	rec := r.Intent(req, in)
	r.Clock.Set(in.ExpiresAt.Add(follow.ExecutableMargin + time.Second))
	s := NewResume(r.App, rec).(*statusScreen)
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	if len(r.WithdrawBodies()) != 0 || len(*timers) != 0 || s.phase != phaseRejected {
		t.Fatalf("phase %v, %d timers, %d re-sends; want rejected, nothing more", s.phase, len(*timers), len(r.WithdrawBodies()))
	}
	if got := r.Record(req.QuoteID); !got.Finished() || got.Error != withdrawal.NeverPaid {
		t.Errorf("journal: %+v, want rejected with %q", got, withdrawal.NeverPaid)
	}
}

// TestResumeExpiredNeverExecuted: the quote expired with no answer, past
// the margin by the service's clock, and the service never executed it:
// the journal says so, nothing was paid, and nothing more is asked.
func TestResumeExpiredNeverExecuted(t *testing.T) {
	r := screentest.NewStatusRig(t)
	start := r.Balance()
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in)
	r.Clock.Set(in.ExpiresAt.Add(follow.ExecutableMargin + time.Second))

	s := NewResume(r.App, rec).(*statusScreen)
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	if len(r.WithdrawBodies()) != 0 {
		t.Fatal("an expired quote's request was re-sent")
	}
	if len(*timers) != 0 || s.phase != phaseRejected {
		t.Fatalf("phase %v, %d timers; want rejected and none", s.phase, len(*timers))
	}
	got := r.Record(req.QuoteID)
	if !got.Finished() || got.Error != withdrawal.NeverPaid || !got.QuoteExpired {
		t.Errorf("journal: %+v, want rejected as expired with %q", got, withdrawal.NeverPaid)
	}
	if !r.Balance().Equal(start) {
		t.Errorf("balance %s, want %s untouched", r.Balance(), start)
	}
	// Named as every view names it: EXPIRED, never REFUSED.
	view := s.Title() + "\n" + ansi.Strip(s.View())
	if !strings.Contains(view, "Withdrawal EXPIRED") || !strings.Contains(view, "State         EXPIRED") ||
		!strings.Contains(view, exchange.ExpiredWords) || strings.Contains(view, "REFUSED") {
		t.Errorf("view does not say the quote expired and nothing was paid:\n%s", view)
	}
	// Reopened from history, the rejection is read from the journal alone.
	again := NewResume(r.App, got).(*statusScreen)
	again.SetSize(100, 40)
	calls := r.StatusCalls.Load()
	if cmd := again.Init(); cmd != nil || r.StatusCalls.Load() != calls || again.phase != phaseRejected {
		t.Errorf("reopening a rejected withdrawal asked the service")
	}
}

// TestResumeExpiredButArrived: the quote expired with no answer, but the
// first request did arrive: the service knows it, so it is followed, and the
// journal learns it was answered.
func TestResumeExpiredButArrived(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestRefunded, "25")
	rec := r.Intent(req, in)
	if _, err := r.App.Client().Withdraw(t.Context(), req); err != nil {
		t.Fatal(err) // the answer that the crash lost
	}
	r.Clock.Set(in.ExpiresAt.Add(time.Second))

	s := NewResume(r.App, rec).(*statusScreen)
	pollToEnd(t, r, s, 10)
	if len(r.WithdrawBodies()) != 1 {
		t.Errorf("%d withdraw requests, want only the first", len(r.WithdrawBodies()))
	}
	if s.follow.Last.State != exchange.StateRefunded {
		t.Errorf("state %s, want REFUNDED", s.follow.Last.State)
	}
	if got := r.Record(req.QuoteID); got.State != exchange.StateRefunded || !got.Finished() {
		t.Errorf("journal: %+v, want REFUNDED", got)
	}
	view := ansi.Strip(s.View())
	if !strings.Contains(view, "Destination   0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc") {
		t.Errorf("the journaled destination is not shown:\n%s", view)
	}
}

// TestResumeRefused: a re-send the service refuses (here the destination
// left the address book) while its quote is valid does not prove the first
// request never runs (a gateway may still deliver it): the refusal is
// said, nothing is journaled, and it is settled again by itself once the
// service's clock is past the quote's expiry and the margin: then it is
// journaled as never paid.
func TestResumeRefused(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in)
	r.Exchange.RemoveFromAddressBook(sandbox.DemoAccountID, sandbox.DestCompleted)
	s := NewResume(r.App, rec).(*statusScreen)
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	if got := r.Record(req.QuoteID); got.Answered {
		t.Fatalf("journal: %+v, want it still unanswered while the quote may execute", got)
	}
	if view := screentest.OneLine(s.View()); !strings.Contains(view, "cannot be told yet") || !strings.Contains(view, "address book") ||
		!strings.Contains(view, in.ExpiresAt.Add(follow.ExecutableMargin).UTC().Format("15:04:05")) {
		t.Errorf("the refusal and the wait are not explained:\n%s", ansi.Strip(s.View()))
	}
	if len(*timers) != 1 {
		t.Fatalf("%d timers, want the one that settles it again", len(*timers))
	}
	again := (*timers)[0]
	r.Clock.Advance(again.D)
	screentest.Drive(s, func() tea.Msg { return again.Msg })
	got := r.Record(req.QuoteID)
	if !got.Finished() || got.State != "" || got.Error != withdrawal.NeverPaid {
		t.Errorf("journal: %+v, want never paid once the margin is over", got)
	}
	if view := s.Title() + "\n" + ansi.Strip(s.View()); !strings.Contains(view, "Withdrawal EXPIRED") || !strings.Contains(view, "nothing was debited") {
		t.Errorf("the end is not explained:\n%s", view)
	}
	if view := ansi.Strip(s.View()); strings.Contains(view, "Paid ") || !strings.Contains(view, "Asked to pay") {
		t.Errorf("a withdrawal never executed shows Paid, or not what was asked:\n%s", view)
	}
}

// TestResumeServerSaysExpired: by the journal's expiry the quote was still
// valid, by the service's it was not: the re-send is refused as expired,
// which proves nothing yet about the first request still on its way; once
// the service's clock is past the journal's expiry and the margin, the
// journal says nothing was paid.
func TestResumeServerSaysExpired(t *testing.T) {
	r := screentest.NewStatusRig(t)
	start := r.Balance()
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in)
	r.Clock.Set(in.ExpiresAt.Add(time.Second))
	rec.Intent.ExpiresAt = in.ExpiresAt.Add(time.Minute) // the journal's, later than the service's
	s := NewResume(r.App, rec).(*statusScreen)
	s.SetSize(100, 40)
	screentest.RecordTimers(s.app)
	cmd := s.Init()
	if s.Busy() == "" {
		t.Fatal("not Busy while settling")
	}
	screentest.Drive(s, cmd)
	if len(r.WithdrawBodies()) != 1 {
		t.Fatalf("%d re-sends, want one of a quote valid by the journal", len(r.WithdrawBodies()))
	}
	if got := r.Record(req.QuoteID); got.Answered || s.phase != phaseSettle {
		t.Fatalf("journal %+v, phase %v: want it unanswered while the quote may execute", got, s.phase)
	}
	r.Clock.Set(rec.Intent.ExpiresAt.Add(follow.ExecutableMargin + time.Second))
	screentest.Drive(s, func() tea.Msg { return tea.KeyPressMsg{Code: 'r', Text: "r"} })
	if got := r.Record(req.QuoteID); !got.Finished() || got.Error != withdrawal.NeverPaid || !got.QuoteExpired {
		t.Errorf("journal: %+v, want rejected as expired with %q", got, withdrawal.NeverPaid)
	}
	if s.phase != phaseRejected || s.never.Name != follow.LabelExpired || !r.Balance().Equal(start) {
		t.Errorf("phase %v, outcome %+v, balance %s (from %s)", s.phase, s.never, r.Balance(), start)
	}
}

// TestResumeLostThenRetried: every try of the re-send fails (a gateway
// answering 502 before the exchange commits): the record stays unanswered,
// nothing is polled, and r sends the identical request again, which pays once.
func TestResumeLostThenRetried(t *testing.T) {
	r := screentest.NewStatusRig(t)
	start := r.Balance()
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in)
	r.Exchange.InjectWithdrawFault(func(phase string) sandbox.Fault {
		if phase == sandbox.PhaseBeforeCommit {
			return sandbox.FaultBadGateway
		}
		return sandbox.FaultNone
	})
	s := NewResume(r.App, rec).(*statusScreen)
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	if s.Busy() != "" || s.err == nil || len(*timers) != 0 || r.StatusCalls.Load() != 0 {
		t.Fatalf("after a lost re-send: busy=%q err=%v timers=%d status requests=%d", s.Busy(), s.err, len(*timers), r.StatusCalls.Load())
	}
	if got := r.Record(req.QuoteID); got.Answered {
		t.Fatalf("a lost re-send was journaled as answered: %+v", got)
	}
	if v := screentest.OneLine(s.View()); !strings.Contains(v, "Press r to send the identical request again") {
		t.Errorf("no way on is offered:\n%s", ansi.Strip(s.View()))
	}
	if s.Resume() != nil {
		t.Error("coming back to a lost re-send asked the service by itself")
	}

	r.Exchange.InjectWithdrawFault(nil)
	tries := len(r.WithdrawBodies())
	screentest.Drive(s, func() tea.Msg { return tea.KeyPressMsg{Code: 'r', Text: "r"} })
	bodies := r.WithdrawBodies()
	if len(bodies) != tries+1 || string(bodies[len(bodies)-1]) != string(bodies[0]) {
		t.Fatalf("r sent %d requests, or not the same body", len(bodies)-tries)
	}
	if !r.Balance().Equal(start.Sub(in.PayAmount)) || s.phase != phaseFollow {
		t.Errorf("balance %s from %s, phase %v: want paid once and followed", r.Balance(), start, s.phase)
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
		_, _ = fmt.Fprintf(w, `{"code":%d,"message":"quote expired","status":410}`, exchange.CodeQuoteExpired)
	})
	r.WithdrawAnswer.Store(&expired)
	s := NewResume(r.App, rec).(*statusScreen)
	screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	if s.phase != phaseFollow || s.follow.Last.State != exchange.StateSubmitted {
		t.Fatalf("phase %v, state %q, never %+v; want it followed as SUBMITTED", s.phase, s.follow.Last.State, s.never)
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
	s := newStatus(r.App, req.QuoteID)
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	if !s.polling() || len(*timers) == 0 {
		t.Fatal("a fresh CREATED quote is not followed")
	}
	r.Clock.Advance(follow.LongestQuoteLife + follow.ExecutableMargin + time.Second)
	*timers = nil
	screentest.Drive(s, s.fetch())
	if s.polling() || len(*timers) != 0 {
		t.Fatalf("still polling an expired unexecuted quote (%d timers)", len(*timers))
	}
	if !strings.Contains(ansi.Strip(s.View()), "The quote was never executed, so nothing was debited") {
		t.Errorf("no explanation:\n%s", ansi.Strip(s.View()))
	}
}
