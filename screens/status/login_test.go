package status

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusAsksOnlyAsItsAccount: the status screen asks only as the
// account it was opened on, as the board does. A login as another account
// landing on the same client while it is open stops its asking, saying
// whose withdrawal it is and who to log in as: asked as the other account,
// whose service does not know it, it read NOT FOUND and stopped for good.
func TestStatusAsksOnlyAsItsAccount(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := screentest.Seed(t, r, sandbox.DestCompleted)
	s := newStatus(r.App, id)
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	if !s.follow.Known || s.follow.Last.State != exchange.StateSubmitted {
		t.Fatalf("the first answer: %+v", s.follow)
	}
	if _, err := r.App.Client().Login(t.Context(), exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
		t.Fatal(err)
	}
	calls := r.StatusCalls.Load()
	for i := 0; i < 10 && len(*timers) > 0; i++ {
		next := (*timers)[0]
		*timers = (*timers)[1:]
		r.Clock.Advance(next.D)
		screentest.Drive(s, func() tea.Msg { return next.Msg })
	}
	if s.follow.NotFound || r.StatusCalls.Load() != calls {
		t.Fatalf("asked %d times as the account logged in meanwhile:\n%s", r.StatusCalls.Load()-calls, ansi.Strip(s.View()))
	}
	said := screentest.OneLine(ansi.Strip(s.View()))
	if !strings.Contains(said, "This withdrawal was followed as account "+sandbox.DemoAccountID+", and the login is now account "+sandbox.NoChainAccountID+"'s") ||
		!strings.Contains(said, "log in as account "+sandbox.DemoAccountID+" to follow it again.") || len(*timers) != 0 {
		t.Errorf("the screen does not say it stopped and who to log in as (%d timers):\n%s", len(*timers), ansi.Strip(s.View()))
	}
	if screentest.Offers(s.KeyMap(), "r") {
		t.Errorf("r is offered, and would only say the same again:\n%s", s.View())
	}
}

// TestBoardStatusOfAnotherLoginsRow: a board's row another login followed
// (held) opened is shown as the board kept it and never asked: asked as
// this login, whose service does not know it, it read NOT FOUND. It says
// whose it is and who to log in as, and r is not offered.
func TestBoardStatusOfAnotherLoginsRow(t *testing.T) {
	r := screentest.NewStatusRig(t)
	now := r.Clock.Now()
	sched := follow.NewScheduler(5)
	sched.Account = "acct-b" // the board's login
	sched.AddKept(follow.Kept{QuoteID: "q-held", As: sandbox.NoChainAccountID, Checked: now.Add(-time.Minute),
		Record: &exchange.Withdrawal{QuoteID: "q-held", State: exchange.StateSubmitted, UpdatedAt: now.Add(-time.Minute)}}, now)
	f, _ := sched.Get("q-held")
	calls := r.StatusCalls.Load()
	detail := NewBoardStatus(r.App, f, time.Second, nil)
	detail.SetSize(100, 30)
	timers := screentest.RecordTimers(r.App)
	screentest.Drive(detail, detail.Init())
	for i := 0; i < 10 && len(*timers) > 0; i++ {
		next := (*timers)[0]
		*timers = (*timers)[1:]
		r.Clock.Advance(next.D)
		screentest.Drive(detail, func() tea.Msg { return next.Msg })
	}
	said := screentest.OneLine(ansi.Strip(detail.View()))
	if n := r.StatusCalls.Load() - calls; n != 0 || strings.Contains(said, "Not found") || !strings.Contains(said, "SUBMITTED") {
		t.Fatalf("another login's row asked %d times as this one:\n%s", n, ansi.Strip(detail.View()))
	}
	if !strings.Contains(said, follow.HeldSentence(sandbox.NoChainAccountID)) || screentest.Offers(detail.KeyMap(), "r") {
		t.Errorf("the row's status does not say whose it is, or offers r:\n%s", ansi.Strip(detail.View()))
	}
}

// TestBoardStatusOfAnotherLoginsEndedRow: a board's row another login
// followed to its end, opened, is shown as kept and never asked as this
// login, whose service does not know it (it was asked once and its "not
// found" dropped, the check said done); r, which would ask so, is not
// offered.
func TestBoardStatusOfAnotherLoginsEndedRow(t *testing.T) {
	r := screentest.NewStatusRig(t)
	now := r.Clock.Now()
	sched := follow.NewScheduler(5)
	sched.Account = "acct-b"
	sched.AddKept(follow.Kept{QuoteID: "q-ended", As: sandbox.NoChainAccountID, Checked: now.Add(-time.Minute),
		Record: &exchange.Withdrawal{QuoteID: "q-ended", State: exchange.StateCompleted, UpdatedAt: now.Add(-time.Minute)}}, now)
	f, _ := sched.Get("q-ended")
	calls := r.StatusCalls.Load()
	detail := NewBoardStatus(r.App, f, 0, nil)
	detail.SetSize(100, 30)
	screentest.Drive(detail, detail.Init())
	said := screentest.OneLine(ansi.Strip(detail.View()))
	if n := r.StatusCalls.Load() - calls; n != 0 || !strings.Contains(said, "COMPLETED") || screentest.Offers(detail.KeyMap(), "r") {
		t.Errorf("another login's ended row asked %d times as this one, or r offered:\n%s", n, ansi.Strip(detail.View()))
	}
}
