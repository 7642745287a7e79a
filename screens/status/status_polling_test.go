package status

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

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
