package status

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// aheadOfTheService gives the console a clock ahead of the sandbox's by
// d, and a client logged in on it.
func aheadOfTheService(t *testing.T, r *screentest.StatusRig, d time.Duration) *exchangetest.FakeClock {
	t.Helper()
	local := exchangetest.NewFakeClock(r.Clock.Now().Add(d))
	c := exchange.New(r.App.Target.Env, exchange.Options{Now: local.Now,
		Retry: exchange.RetryPolicy{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond}})
	if _, err := c.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	r.App.Target.Client, r.App.Common.Now = c, local.Now
	return local
}

// TestConsoleWithTheLocalClockAhead is issue 25's attack in the console:
// its clock 75 s ahead of the service's, a journaled request whose every
// attempt a gateway answers 502 (the first one held). By the local clock
// its quote expired over 10 s ago, by the service's it is valid: the
// status screen shows it CREATED and keeps asking, and History's resume
// re-sends it and journals nothing. The held request, delivered late,
// executes; resuming then follows it. One debit.
func TestConsoleWithTheLocalClockAhead(t *testing.T) {
	r := screentest.NewStatusRig(t)
	start := r.Balance()
	local := aheadOfTheService(t, r, 75*time.Second)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in)
	if !local.Now().After(in.ExpiresAt.Add(10*time.Second)) || !r.Clock.Now().Before(in.ExpiresAt) {
		t.Fatalf("local %s, service %s, expiry %s: the attack needs the quote expired by the local clock only", local.Now(), r.Clock.Now(), in.ExpiresAt)
	}
	gateway := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "<html>502 Bad Gateway</html>", http.StatusBadGateway)
	})
	r.WithdrawAnswer.Store(&gateway)

	followed := newStatus(r.App, req.QuoteID)
	followed.SetSize(100, 40)
	timers := screentest.RecordTimers(followed.app)
	screentest.Drive(followed, followed.Init())
	if view := followed.Title() + "\n" + ansi.Strip(followed.View()); !followed.polling() || len(*timers) != 1 ||
		!strings.Contains(view, "Withdrawal CREATED") || strings.Contains(view, "EXPIRED") {
		t.Fatalf("the status screen of a quote valid by the service's clock:\n%s", view)
	}

	s := NewResume(r.App, rec).(*statusScreen)
	s.SetSize(100, 40)
	screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	if got := r.Record(req.QuoteID); got.Answered || s.phase != phaseSettle {
		t.Fatalf("journal %+v, phase %v: want it unanswered, to settle again", got, s.phase)
	}
	if view := screentest.OneLine(s.View()); strings.Contains(view, "EXPIRED") || !strings.Contains(view, "Press r to send the identical request again") {
		t.Fatalf("after the re-send got no answer:\n%s", ansi.Strip(s.View()))
	}

	r.WithdrawAnswer.Store(nil)
	if _, err := r.App.Client().Withdraw(context.Background(), req); err != nil {
		t.Fatal(err) // the held request, delivered late
	}
	screentest.Drive(s, func() tea.Msg { return tea.KeyPressMsg{Code: 'r', Text: "r"} })
	if s.phase != phaseFollow || s.follow.Last.State != exchange.StateSubmitted {
		t.Fatalf("phase %v, state %q: want the withdrawal that arrived followed", s.phase, s.follow.Last.State)
	}
	if !r.Balance().Equal(start.Sub(in.PayAmount)) {
		t.Errorf("balance %s from %s: want one debit", r.Balance(), start)
	}
}

// TestStatusNotFoundAfterAcceptance (issue 25 item 2): a withdrawal this
// journal saw accepted that the service does not know is NOT FOUND?, with
// the acceptance's date and "contact support", and is asked again; never
// "not found", never final.
func TestStatusNotFoundAfterAcceptance(t *testing.T) {
	r := screentest.NewStatusRig(t)
	const id = "q-lagging-replica" // accepted, then unknown to the replica asked
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	req.QuoteID = id
	r.Intent(req, in)
	sess, _ := r.App.Client().Session()
	if err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindAccepted, Env: r.App.Target.Env.Name, AccountID: sess.AccountID, QuoteID: id}); err != nil {
		t.Fatal(err)
	}
	s := newStatus(r.App, id)
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	for range 2 {
		view := s.Title() + "\n" + screentest.OneLine(s.View())
		if !s.follow.Vanished || s.follow.Final || !s.polling() || len(*timers) != 1 ||
			!strings.Contains(view, "Withdrawal "+follow.LabelVanished) || !strings.Contains(view, "accepted this withdrawal on "+r.Clock.Now().UTC().Format("2006-01-02")) ||
			!strings.Contains(view, "Contact support") || strings.Contains(view, "Polling stopped") {
			t.Fatalf("a withdrawal accepted, then unknown:\n%s", view)
		}
		next := (*timers)[0]
		*timers = nil
		r.Clock.Advance(next.D)
		screentest.Drive(s, func() tea.Msg { return next.Msg })
	}
}

// TestStatusNotFoundSaysWhatNext: an id the service does not know, and
// this journal never saw, says what to do next: check it, or look it up
// on the account and environment that made it.
func TestStatusNotFoundSaysWhatNext(t *testing.T) {
	r := screentest.NewStatusRig(t)
	s := newStatus(r.App, "q-nobodyknowsthisone")
	s.SetSize(100, 40)
	screentest.Drive(s, s.Init())
	if view := screentest.OneLine(s.View()); !strings.Contains(view, "check the id, or look it up logged in to the account and environment that made it") {
		t.Fatalf("an unknown id:\n%s", view)
	}
}
