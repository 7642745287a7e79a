package status

import (
	"errors"
	"slices"
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
	"github.com/svcwallet/svcwallet/tui"
)

// pollToEnd polls a Status to its end on the rig's clock: each timer the
// screen asks for is fired after moving the clock by its duration. It
// returns the waits asked for.
func pollToEnd(t *testing.T, r *screentest.StatusRig, s *statusScreen, maxPolls int) []time.Duration {
	t.Helper()
	s.SetSize(100, 40)
	timers := screentest.RecordTimers(s.app)
	var waits []time.Duration
	screentest.Drive(s, s.Init())
	for range maxPolls {
		if len(*timers) == 0 {
			break
		}
		next := (*timers)[0]
		*timers = (*timers)[1:]
		waits = append(waits, next.D)
		r.Clock.Advance(next.D)
		screentest.Drive(s, func() tea.Msg { return next.Msg })
		if len(*timers) > 1 {
			t.Fatalf("%d timers pending at once", len(*timers))
		}
		if s.follow.Known && exchange.Terminal(s.follow.Last.State) && len(*timers) > 0 {
			t.Fatalf("a timer was set after the terminal state %s", s.follow.Last.State)
		}
	}
	if len(*timers) != 0 {
		t.Fatalf("still polling after %d polls:\n%s", maxPolls, ansi.Strip(s.View()))
	}
	return waits
}

func timelineStates(s *statusScreen) []string {
	var out []string
	for _, x := range s.timeline {
		out = append(out, x.state)
	}
	return out
}

// TestStatusFollowsToEachEnd follows real sandbox withdrawals (Settle 6 s:
// SENDING from 3 s) at a 2 s interval: every state is seen and journaled
// once, polling stops at the end, and no wait is shorter than the interval.
func TestStatusFollowsToEachEnd(t *testing.T) {
	for _, tc := range []struct {
		dest, end string
		words     string
	}{
		{sandbox.DestCompleted, exchange.StateCompleted, "Paid out"},
		{sandbox.DestRefunded, exchange.StateRefunded, "The funds are back in the funding account; nothing was paid out"},
		{sandbox.DestFailed, exchange.StateFailed, "Nothing was paid out, and unlike a refund the funds are not returned"},
	} {
		t.Run(tc.end, func(t *testing.T) {
			r := screentest.NewStatusRig(t)
			r.App.PollInterval = 2 * time.Second
			id := r.Made(tc.dest, "25")
			s := newStatus(r.App, id)
			waits := pollToEnd(t, r, s, 10)

			want := []string{exchange.StateSubmitted, exchange.StateSending, tc.end}
			if got := timelineStates(s); !slices.Equal(got, want) {
				t.Errorf("timeline %v, want %v", got, want)
			}
			if got, want := r.JournalStates(id), []string{"accepted", exchange.StateSending, tc.end}; !slices.Equal(got, want) {
				t.Errorf("journaled %v, want each state once: %v", got, want)
			}
			// t=0 SUBMITTED, 2 SUBMITTED, 4 SENDING, 6 the end.
			if n := r.StatusCalls.Load(); n != 4 {
				t.Errorf("%d status requests, want 4", n)
			}
			for _, d := range waits {
				if d != 2*time.Second {
					t.Errorf("waited %s between polls, want the interval 2s", d)
				}
			}
			view := ansi.Strip(s.View())
			for _, w := range []string{tc.words, "Final state: no more checks", id} {
				if !strings.Contains(view, w) {
					t.Errorf("view lacks %q:\n%s", w, view)
				}
			}
			hasHash := strings.Contains(view, "Payout hash")
			if hasHash != (tc.end == exchange.StateCompleted) || (hasHash && !strings.Contains(view, s.follow.Last.WithdrawTxHash)) {
				t.Errorf("payout hash shown=%v for %s:\n%s", hasHash, tc.end, view)
			}
			if !r.Record(id).Finished() {
				t.Errorf("journal record not finished: %+v", r.Record(id))
			}
			// Only a payout has a hash to copy, and only a payout's amounts
			// read as paid.
			offersCopy := screentest.Offered(s, "copy payout hash")
			if paid := tc.end == exchange.StateCompleted; offersCopy != paid || strings.Contains(view, "(not paid out)") == paid {
				t.Errorf("%s: copy offered=%v, view:\n%s", tc.end, offersCopy, view)
			}
			// Every end copies the ids support asks for (issue 21 bug 10).
			for k, want := range map[string]string{"i": id, "t": s.follow.Last.TxID} {
				_, cmd := screentest.Press(s, k)
				if want == "" || !slices.Contains(screentest.RunAll(cmd), tea.Raw(ansi.SetSystemClipboard(want))()) {
					t.Errorf("%s: %s does not copy %q", tc.end, k, want)
				}
			}
		})
	}
}

// TestStatusReopenedDoesNotJournalAgain: opening a finished withdrawal from
// history shows its journaled timeline and writes nothing new.
func TestStatusReopenedDoesNotJournalAgain(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "10")
	first := newStatus(r.App, id)
	pollToEnd(t, r, first, 10)
	before := r.JournalStates(id)
	s := newStatus(r.App, id)
	pollToEnd(t, r, s, 10)
	if got := r.JournalStates(id); !slices.Equal(got, before) {
		t.Errorf("journal grew from %v to %v", before, got)
	}
	if got, want := timelineStates(s), timelineStates(first); !slices.Equal(got, want) {
		t.Errorf("reopened timeline %v, want the journal's %v", got, want)
	}
}

// TestStatusBackoff: failed polls wait longer each time, never less than the
// interval nor more than 30 s, and an answer brings back the interval.
func TestStatusBackoff(t *testing.T) {
	for _, tc := range []struct {
		name   string
		jitter func(int64) int64
		want   []time.Duration
	}{
		{"jitter high", func(n int64) int64 { return n - 1 }, []time.Duration{6, 12, 24, 30, 30, 30}},
		{"jitter low", func(int64) int64 { return 0 }, []time.Duration{3, 6, 12, 15, 15, 15}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := screentest.NewStatusRig(t)
			// A quote never executed: still moving (CREATED) when the
			// service answers again, minutes later.
			req, _ := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "10")
			s := newStatus(r.App, req.QuoteID)
			s.sched.Jitter = tc.jitter
			s.SetSize(100, 40)
			timers := screentest.RecordTimers(s.app)
			r.FailStatus.Store(true)
			s.Update(nil) // nothing happens on a foreign message
			screentest.Drive(s, s.Init())
			for range len(tc.want) - 1 {
				next := (*timers)[len(*timers)-1]
				r.Clock.Advance(next.D)
				screentest.Drive(s, func() tea.Msg { return next.Msg })
			}
			var got []time.Duration
			for _, tm := range *timers {
				got = append(got, tm.D/time.Second)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("waits %v s, want %v s", got, tc.want)
			}
			view := ansi.Strip(s.View())
			if !strings.Contains(view, "The service had a problem (HTTP 503)") || !strings.Contains(view, "Retrying (failed 6× in a row) at") {
				t.Errorf("the error and the retry time are not shown:\n%s", view)
			}
			r.FailStatus.Store(false)
			next := (*timers)[len(*timers)-1]
			r.Clock.Advance(next.D)
			screentest.Drive(s, func() tea.Msg { return next.Msg })
			if last := (*timers)[len(*timers)-1].D; last != follow.DefaultPollInterval || s.err != nil {
				t.Errorf("after a good answer: wait %s, error %v; want the interval and no error", last, s.err)
			}
		})
	}
}

// TestStatusTicksDieWithTheVisit runs the screen under the root model: a
// tick that fires while another screen is on top asks nothing; coming back
// polls again at once with a new tag, and the old tick stays dead; r
// replaces the pending timer instead of adding one.
func TestStatusTicksDieWithTheVisit(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Executed(sandbox.DestCompleted, "10")
	s := newStatus(r.App, id)
	timers := screentest.RecordTimers(s.app)
	root := tui.New(s, tui.Options{Theme: "dark", Common: r.App.Common})
	var step func(tea.Msg)
	step = func(msg tea.Msg) {
		_, cmd := root.Update(msg)
		for _, m := range screentest.RunAll(cmd) {
			step(m)
		}
	}
	step(tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, m := range screentest.RunAll(root.Init()) {
		step(m)
	}
	if n := r.StatusCalls.Load(); n != 1 || len(*timers) != 1 {
		t.Fatalf("after start: %d requests, %d timers; want 1 and 1", n, len(*timers))
	}
	stale := (*timers)[0].Msg

	step(tui.PushMsg{Screen: screentest.NewHome(r.App)})
	step(stale) // fires while another screen is on top
	if n := r.StatusCalls.Load(); n != 1 {
		t.Fatalf("a tick from a hidden status screen made a request (%d)", n)
	}
	step(tea.KeyPressMsg{Code: tea.KeyEscape}) // back: Resume polls at once
	if n := r.StatusCalls.Load(); n != 2 || len(*timers) != 2 {
		t.Fatalf("after coming back: %d requests, %d timers; want 2 and 2", n, len(*timers))
	}
	step(stale) // the first visit's timer, firing late
	if n := r.StatusCalls.Load(); n != 2 {
		t.Fatalf("a tick of the previous visit made a request (%d)", n)
	}
	step(tea.KeyPressMsg{Code: 'r', Text: "r"})
	current := (*timers)[1].Msg
	step(current) // the timer replaced by r
	if n := r.StatusCalls.Load(); n != 3 {
		t.Fatalf("r and the timer it replaced made %d requests, want 3", n)
	}
	r.Clock.Advance((*timers)[2].D)
	step((*timers)[2].Msg)
	if n := r.StatusCalls.Load(); n != 4 {
		t.Fatalf("the live timer made no request (%d)", n)
	}
}

// TestStatusOpensExplorer: o is offered only when the payout has an explorer
// link, opens it where a browser can be opened, and says the link otherwise.
func TestStatusOpensExplorer(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 2 * time.Second
	id := r.Executed(sandbox.DestCompleted, "25")
	s := newStatus(r.App, id)
	pollToEnd(t, r, s, 10)
	offers := func() bool { return screentest.Offers(s.KeyMap(), "o") }
	if offers() {
		t.Fatal("o offered without an explorer link (the sandbox has none)")
	}
	r.App.Target.Env.ExplorerTx = map[string]string{s.follow.Last.Chain: "https://explorer.example/tx/{hash}"}
	link := "https://explorer.example/tx/" + s.follow.Last.WithdrawTxHash
	if !offers() {
		t.Fatal("o not offered with an explorer link")
	}
	var opened string
	r.App.OpenURL = func(l string) error { opened = l; return nil }
	_, cmd := s.Update(screentest.Key("o"))
	if m := screentest.FindMsg[tui.InfoMsg](t, screentest.RunCmdSync(t, cmd)); opened != link || !strings.Contains(m.Text, "Opened "+link) {
		t.Fatalf("opened %q, said %q", opened, m.Text)
	}
	r.App.OpenURL = func(string) error { return errors.New("no display") }
	_, cmd = s.Update(screentest.Key("o"))
	if m := screentest.FindMsg[tui.InfoMsg](t, screentest.RunCmdSync(t, cmd)); !strings.Contains(m.Text, "the link is "+link+" (no display)") {
		t.Fatalf("without a browser it said %q", m.Text)
	}
}

// TestStatusExpiredUnexecutedIsFinal: a quote never executed reads as such
// once its lifetime is over: the title says so, polling stops, and no
// "Next check" is left behind in the past.
func TestStatusExpiredUnexecutedIsFinal(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 10 * time.Second
	req, _ := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	s := newStatus(r.App, req.QuoteID)
	pollToEnd(t, r, s, 70)
	view := s.Title() + "\n" + ansi.Strip(s.View())
	if !s.follow.ExpiredUnexecuted() || !strings.Contains(view, "Withdrawal EXPIRED") ||
		!strings.Contains(view, "Final state: no more checks") || strings.Contains(view, "Next check") || strings.Contains(view, "Withdrawal CREATED") {
		t.Fatalf("view of an expired, unexecuted quote:\n%s", view)
	}
}

// TestStatusUsesTheQuotesOwnExpiry: a journaled quote of this account is
// final once its own expires_at (plus the margin) has passed on the
// service's clock, not after the longest quote life.
func TestStatusUsesTheQuotesOwnExpiry(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 10 * time.Second
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	in.ExpiresAt = r.Clock.Now().Add(20 * time.Second) // much shorter than the longest quote life
	rec := r.Intent(req, in)
	s := newStatus(r.App, rec.QuoteID)
	waits := pollToEnd(t, r, s, 40)
	total := time.Duration(0)
	for _, d := range waits {
		total += d
	}
	if !s.follow.ExpiredUnexecuted() || total > 20*time.Second+follow.ExecutableMargin+10*time.Second {
		t.Fatalf("final after %s (waits %v); want soon after the quote's own expiry", total, waits)
	}
	if v := s.Title(); v != "Withdrawal EXPIRED" {
		t.Fatalf("view:\n%s", v)
	}
}

// TestStatusRefusesHostileRecords: records a hostile proxy rewrote (a
// transfer id running a command, a state named twice, a COMPLETED without
// its payout hash) are shown as unreadable, never as paid out, and nothing
// of them can be copied; a CREATED record of a withdrawal the journal saw
// accepted sends the user to support.
func TestStatusRefusesHostileRecords(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    exchangetest.Rewrite
		says string
	}{
		{"transfer id running a command", exchangetest.TxIDRunsCommand, "transfer id that holds a character other than letters"},
		{"state named twice", exchangetest.StateTwice, "names the field"},
		{"COMPLETED without a payout hash", exchangetest.NoPayoutHash, "COMPLETED record that carries no payout hash"},
		{"CREATED after acceptance", exchangetest.CreatedLongAgo, "The service reports CREATED for a withdrawal it accepted on"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := screentest.NewStatusRig(t)
			id := r.Executed(sandbox.DestCompleted, "25")
			sess, _ := r.App.Client().Session()
			if err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindAccepted,
				Env: r.App.Target.Env.Name, AccountID: sess.AccountID, QuoteID: id}); err != nil {
				t.Fatal(err)
			}
			r.Clock.Advance(time.Hour)
			rewrite := func(b []byte) []byte { return tc.f(b) }
			r.StatusRewrite.Store(&rewrite)
			s := newStatus(r.App, id)
			s.SetSize(100, 40)
			screentest.RecordTimers(s.app) // one answer is enough: no poll runs
			screentest.Drive(s, s.Init())
			view := screentest.OneLine(ansi.Strip(s.View()))
			if !strings.Contains(view, tc.says) || strings.Contains(view, "Paid out") || strings.Contains(view, "nothing was debited") ||
				strings.Contains(view, "PWNED") || screentest.Offered(s, "copy payout hash") {
				t.Fatalf("view:\n%s", ansi.Strip(s.View()))
			}
		})
	}
}

// TestStatusJournalsOwnOnly (issue 18): the status screen journals the
// states of a withdrawal only when this account's journal holds it: not
// one whose acceptance another account journaled on this machine, nor one
// made elsewhere.
func TestStatusJournalsOwnOnly(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 2 * time.Second
	others, elsewhere := screentest.Seed(t, r, sandbox.DestCompleted), screentest.Seed(t, r, sandbox.DestCompleted)
	if err := r.App.Journal().Append(journal.Entry{Time: r.Clock.Now(), Kind: journal.KindAccepted,
		Env: r.App.Target.Env.Name, AccountID: sandbox.NoChainAccountID, QuoteID: others}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][]string{others: {"accepted"}, elsewhere: nil} {
		s := newStatus(r.App, id)
		pollToEnd(t, r, s, 10)
		if s.follow.Last.State != exchange.StateCompleted {
			t.Fatalf("%s followed to %s", id, s.follow.Last.State)
		}
		if got := r.JournalStates(id); !slices.Equal(got, want) {
			t.Errorf("%s journaled %v, want %v", id, got, want)
		}
	}
}

// TestStatusAnnouncesTheEnd (issue 21 item 15): with notify on, the answer
// that ends a followed withdrawal sends a desktop notification naming it;
// one that does not end it sends none.
func TestStatusAnnouncesTheEnd(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "25")
	done := newStatus(r.App, id)
	pollToEnd(t, r, done, 10)
	completed := done.follow.Last
	sending := completed
	sending.State, sending.WithdrawTxHash = exchange.StateSending, ""

	r.App.Notify = true
	s := newStatus(r.App, id)
	notified := func(cmd tea.Cmd) string {
		for _, m := range screentest.RunAll(cmd) {
			if raw, ok := m.(tea.RawMsg); ok {
				return raw.Msg.(string)
			}
		}
		return ""
	}
	if got := notified(s.answered(statusMsg{w: sending})); got != "" {
		t.Errorf("SENDING notified %q", got)
	}
	if got := notified(s.answered(statusMsg{w: completed})); !strings.Contains(got, "\x1b]9;Withdrawal COMPLETED: "+id+": ") {
		t.Errorf("COMPLETED notified %q", got)
	}
}

// TestStatusRateLimited (issue 21 bug 3): a 429 on the status screen says
// the pause and its countdown, not a failure.
func TestStatusRateLimited(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "25")
	r.LimitStatus.Store(4)
	s := newStatus(r.App, id)
	s.SetSize(100, 30)
	timers := screentest.RecordTimers(s.app)
	screentest.Drive(s, s.Init())
	v := screentest.OneLine(ansi.Strip(s.View()))
	if !strings.Contains(v, "The service says too many requests: rate limited, resuming in 4s.") || strings.Contains(v, "Cannot check") || strings.Contains(v, "Not found") {
		t.Fatalf("a 429 on the status screen:\n%s", ansi.Strip(s.View()))
	}
	countdown := slices.IndexFunc(*timers, func(tm screentest.Timer) bool { _, ok := tm.Msg.(countdownMsg); return ok })
	if countdown < 0 || (*timers)[countdown].D != time.Second {
		t.Fatalf("no countdown redraw in a second: %v", *timers)
	}
	r.Clock.Advance(time.Second)
	screentest.Drive(s, func() tea.Msg { return (*timers)[countdown].Msg })
	if v := screentest.OneLine(ansi.Strip(s.View())); !strings.Contains(v, "resuming in 3s") {
		t.Errorf("the countdown a second later:\n%s", ansi.Strip(s.View()))
	}
}

// TestBoardStatusWaitsOutThePause (issue 21 bug 3): the status screen the
// board opens shows the board's record at once and, while the service's
// rate limit holds the board's asks, says the pause with its countdown and
// asks only once it is over, also for a final withdrawal (to read the
// journal).
func TestBoardStatusWaitsOutThePause(t *testing.T) {
	r := screentest.NewStatusRig(t)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	r.Clock.Advance(sandbox.DefaultSettle)
	w, err := r.App.Client().WithdrawalStatus(t.Context(), done)
	if err != nil || w.State != exchange.StateCompleted {
		t.Fatalf("the seeded withdrawal is %s (%v)", w.State, err)
	}
	sched := follow.NewScheduler(5)
	sched.Add(done, r.Clock.Now())
	sched.Next(r.Clock.Now())
	sched.Answer(done, w, nil, r.Clock.Now())
	f, _ := sched.Get(done)

	detail := NewBoardStatus(r.App, f, 1500*time.Millisecond, nil)
	detail.SetSize(100, 30)
	timers := screentest.RecordTimers(r.App)
	calls := r.StatusCalls.Load()
	screentest.Drive(detail, detail.Init())
	dv := screentest.OneLine(ansi.Strip(detail.View()))
	if !strings.Contains(dv, "COMPLETED") || !strings.Contains(dv, "rate limited, resuming in 2s") ||
		strings.Contains(dv, "Not found") || strings.Contains(dv, "Cannot check") || r.StatusCalls.Load() != calls {
		t.Fatalf("the detail during the pause (asked %d times):\n%s", r.StatusCalls.Load()-calls, ansi.Strip(detail.View()))
	}
	poll := slices.IndexFunc(*timers, func(tm screentest.Timer) bool { _, ok := tm.Msg.(pollMsg); return ok })
	if poll < 0 {
		t.Fatal("the detail does not ask once the pause is over")
	}
	tm := (*timers)[poll]
	r.Clock.Advance(tm.D)
	screentest.Drive(detail, func() tea.Msg { return tm.Msg })
	if n := r.StatusCalls.Load() - calls; n != 1 {
		t.Fatalf("after the pause the detail asked %d times, want once", n)
	}
}

// TestExpiredQuoteHasOneName: a quote of this account that expired without
// being executed is EXPIRED on the status screen, followed and resumed
// from the journal, as on the board and in History; never REJECTED,
// REFUSED or CREATED.
func TestExpiredQuoteHasOneName(t *testing.T) {
	r := screentest.NewStatusRig(t)
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	rec := r.Intent(req, in) // journaled, its answer lost
	r.Clock.Set(in.ExpiresAt.Add(follow.ExecutableMargin + time.Second))
	id := req.QuoteID

	followed := newStatus(r.App, id)
	pollToEnd(t, r, followed, 10)
	if view := followed.Title() + "\n" + ansi.Strip(followed.View()); !strings.Contains(view, "Withdrawal EXPIRED") ||
		!strings.Contains(view, "State         EXPIRED") || !strings.Contains(view, exchange.ExpiredWords) {
		t.Errorf("the followed status:\n%s", view)
	}

	resumed := NewResume(r.App, rec).(*statusScreen)
	resumed.SetSize(100, 40)
	screentest.RecordTimers(resumed.app)
	screentest.Drive(resumed, resumed.Init())
	if view := resumed.Title() + "\n" + ansi.Strip(resumed.View()); !strings.Contains(view, "Withdrawal EXPIRED") ||
		!strings.Contains(view, "State         EXPIRED") || !strings.Contains(view, exchange.ExpiredWords) {
		t.Errorf("the resumed status:\n%s", view)
	}
}

// TestStatusShowsWhatSupportQuotes (issue 28 items 4 and 8): the detail of
// an own withdrawal shows its quote id, transfer id, destination, chain,
// state and payout hash, each id with a key that copies it; opened again
// while the service fails, it starts from the journal's record, never
// from blank.
func TestStatusShowsWhatSupportQuotes(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.App.PollInterval = 2 * time.Second
	id := r.Made(sandbox.DestCompleted, "25")
	s := newStatus(r.App, id)
	pollToEnd(t, r, s, 10)
	w := s.follow.Last
	view := screentest.OneLine(ansi.Strip(s.View()))
	for _, want := range []string{id, w.TxID, sandbox.DestCompleted, w.Chain, w.WithdrawTxHash, exchange.StateCompleted} {
		if want == "" || !strings.Contains(view, want) {
			t.Errorf("the detail lacks %q:\n%s", want, view)
		}
	}
	for key, want := range map[string]string{"i": id, "t": w.TxID, "d": sandbox.DestCompleted, "c": w.WithdrawTxHash} {
		_, cmd := s.Update(screentest.Key(key))
		if !slices.Contains(screentest.RunAll(cmd), tea.Raw(ansi.SetSystemClipboard(want))()) {
			t.Errorf("%s does not copy %s", key, want)
		}
	}

	r.FailStatus.Store(true)
	again := newStatus(r.App, id)
	again.SetSize(100, 40)
	screentest.RecordTimers(r.App)
	screentest.Drive(again, again.Init())
	if v := again.Title() + "\n" + screentest.OneLine(ansi.Strip(again.View())); !strings.Contains(v, "Withdrawal COMPLETED") ||
		!strings.Contains(v, w.WithdrawTxHash) || !strings.Contains(v, "Cannot check") {
		t.Errorf("opened again with the service failing:\n%s", v)
	}
}

// TestStatusOffersRefreshLastOnceEnded: while a withdrawal moves, r
// (refresh now) is its footer's first key; once it ended, the copies come
// first, so a short footer keeps "c copy payout hash" (at 60 columns it
// showed "r refresh now" alone).
func TestStatusOffersRefreshLastOnceEnded(t *testing.T) {
	r := screentest.NewStatusRig(t)
	id := r.Made(sandbox.DestCompleted, "25")
	done := newStatus(r.App, id)
	pollToEnd(t, r, done, 10)
	sending := done.follow.Last
	sending.State, sending.WithdrawTxHash = exchange.StateSending, ""
	s := newStatus(r.App, id)
	first := func() string { return s.KeyMap().ShortHelp()[0].Help().Desc }
	s.answered(statusMsg{w: sending})
	if got := first(); got != "refresh now" {
		t.Errorf("SENDING: the footer begins with %q", got)
	}
	if got := done.KeyMap().ShortHelp()[0].Help().Desc; got != "copy payout hash" {
		t.Errorf("COMPLETED: the footer begins with %q", got)
	}
}

// TestStatusNamesTheDestinationAsItsKey: the journaled address is the row
// "Destination", the word of d (copy destination), of History and of the
// withdrawal's form; it was "To".
func TestStatusNamesTheDestinationAsItsKey(t *testing.T) {
	r := screentest.NewStatusRig(t)
	s := newStatus(r.App, r.Made(sandbox.DestCompleted, "25"))
	pollToEnd(t, r, s, 10)
	s.SetSize(120, 40)
	if v := ansi.Strip(s.View()); !strings.Contains(v, "\nDestination   "+sandbox.DestCompleted) || !screentest.Offered(s, "copy destination") {
		t.Errorf("the destination row, or d, is missing:\n%s", v)
	}
}
