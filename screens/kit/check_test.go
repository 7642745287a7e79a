package kit_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// runCheck hands the check's messages back to it until it is over, firing
// its timers on the fake clock, and returns what it said at its end.
func runCheck(t *testing.T, r *screentest.StatusRig, timers *[]screentest.Timer, cmd tea.Cmd) tea.Cmd {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for range 1000 {
		if len(queue) == 0 {
			if len(*timers) == 0 {
				t.Fatal("the check stopped before its end")
			}
			tm := (*timers)[0]
			*timers = (*timers)[1:]
			r.Clock.Advance(tm.D)
			queue = append(queue, func() tea.Msg { return tm.Msg })
		}
		c := queue[0]
		queue = queue[1:]
		for _, msg := range screentest.RunCmdSync(t, c) {
			if done, ok := msg.(kit.CheckedMsg); ok {
				return done.Said
			}
			next, ok := r.App.UpdateCheck(msg)
			if !ok {
				continue // a toast of a failed journal write, say
			}
			queue = append(queue, next)
		}
	}
	t.Fatal("the check never ended")
	return nil
}

// records is the account's journal records, as Home hands them.
func records(t *testing.T, r *screentest.StatusRig) []journal.Record {
	t.Helper()
	recs, err := r.App.Journal().Records()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestCheckAsksEachUnfinishedOnce: the background check asks the service
// about each unfinished withdrawal of the account once (a 429 waited out
// and asked again), journals what it learns, and ends quietly when all
// went well; Checking counts down to 0.
func TestCheckAsksEachUnfinishedOnce(t *testing.T) {
	r := screentest.NewStatusRig(t)
	paid, refunded := r.Made(sandbox.DestCompleted, "25"), r.Made(sandbox.DestRefunded, "30")
	r.Clock.Advance(sandbox.DefaultSettle)
	timers := screentest.RecordTimers(r.App)
	r.LimitStatus.Store(2)
	start := r.App.StartCheck(records(t, r))
	if r.App.Checking() != 2 {
		t.Fatalf("checking %d of 2", r.App.Checking())
	}
	if again := r.App.StartCheck(records(t, r)); again != nil {
		t.Error("a second check started while one was under way")
	}
	r.LimitStatus.Store(0)
	if said := runCheck(t, r, timers, start); said != nil {
		t.Errorf("a check that went well said %v", screentest.RunCmdSync(t, said))
	}
	if r.App.Checking() != 0 {
		t.Errorf("still checking %d", r.App.Checking())
	}
	for id, want := range map[string]string{paid: exchange.StateCompleted, refunded: exchange.StateRefunded} {
		if states := r.JournalStates(id); !slices.Contains(states, want) {
			t.Errorf("%s journaled %v, want %s among them", id, states, want)
		}
	}
	if r.App.StartCheck(records(t, r)) != nil {
		t.Error("a check started with nothing unfinished")
	}
}

// TestCheckSaysWhatFailed: a withdrawal the service could not be asked
// about is said at the check's end, with what to do.
func TestCheckSaysWhatFailed(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.Made(sandbox.DestCompleted, "25")
	timers := screentest.RecordTimers(r.App)
	r.FailStatus.Store(true)
	said := runCheck(t, r, timers, r.App.StartCheck(records(t, r)))
	msgs := screentest.RunCmdSync(t, said)
	if len(msgs) != 1 {
		t.Fatalf("said %v", msgs)
	}
	em, ok := msgs[0].(tui.ErrorMsg)
	if !ok || !strings.Contains(em.Err.Error(), "1 of 1 unfinished withdrawals could not be asked about") || !strings.Contains(em.Err.Error(), "press u on History") {
		t.Errorf("said %v", msgs[0])
	}
}

// TestCheckResumesOnTop: answers that reached another screen are lost; the
// check taken up again asks those ids anew, and drops the old tag's.
func TestCheckResumesOnTop(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.Made(sandbox.DestCompleted, "25")
	timers := screentest.RecordTimers(r.App)
	lost := screentest.RunCmdSync(t, r.App.StartCheck(records(t, r)))
	resumed := r.App.ResumeCheck()
	for _, m := range lost {
		if cmd, ok := r.App.UpdateCheck(m); !ok || cmd != nil {
			t.Errorf("an answer of the old tag was taken: %T", m)
		}
	}
	if r.App.Checking() != 1 {
		t.Fatalf("checking %d", r.App.Checking())
	}
	runCheck(t, r, timers, resumed)
	if r.App.Checking() != 0 {
		t.Errorf("the resumed check did not end: %d left", r.App.Checking())
	}
	if cmd, ok := r.App.UpdateCheck(tea.KeyPressMsg{}); ok || cmd != nil {
		t.Error("another message was taken for the check's")
	}
}

// TestFollowHelpers: the countdown's next redraw, the rate limit's words,
// the rows' clock, plurals, and where the board's file lives.
func TestFollowHelpers(t *testing.T) {
	for left, want := range map[time.Duration]time.Duration{2500 * time.Millisecond: 500 * time.Millisecond, 3 * time.Second: time.Second} {
		if got := kit.NextSecond(left); got != want {
			t.Errorf("NextSecond(%s) = %s, want %s", left, got, want)
		}
	}
	if got := kit.RateLimited(1500 * time.Millisecond); got != "rate limited, resuming in 2s" {
		t.Errorf("RateLimited: %q", got)
	}
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for at, want := range map[time.Time]string{now.Add(-time.Hour): "09:00:00", now.Add(-48 * time.Hour): "Feb 28 10:00", {}: ""} {
		if got := kit.Clock(at, now); got != want {
			t.Errorf("Clock(%s) = %q, want %q", at, got, want)
		}
	}
	for at, want := range map[time.Time]string{now.Add(-time.Hour): "09:00:00", now.Add(-48 * time.Hour): "Feb 28 10:00:00", {}: ""} {
		if got := kit.ClockSeconds(at, now); got != want {
			t.Errorf("ClockSeconds(%s) = %q, want %q", at, got, want)
		}
	}
	if kit.Plural(1, "one", "many") != "one" || kit.Plural(2, "one", "many") != "many" {
		t.Error("Plural")
	}
	r := screentest.NewStatusRig(t)
	if dir := kit.StateDir(r.App); dir != filepath.Dir(r.App.Journal().Path()) {
		t.Errorf("the state folder %s is not the journal's", dir)
	}
	if got := kit.WatchlistPath(r.App); filepath.Base(got) != follow.WatchlistFile {
		t.Errorf("the board's file: %s", got)
	}
}

// TestFlushes: every write owed is done once at the end, a board opened
// again takes over the last one's, and the failures are all said.
func TestFlushes(t *testing.T) {
	var ran []string
	var mu sync.Mutex
	flush := func(name string, err error) func() error {
		return func() error { mu.Lock(); ran = append(ran, name); mu.Unlock(); return err }
	}
	var f kit.Flushes
	if old := f.Swap("board", flush("first", nil)); old != nil {
		t.Error("a flush replaced none")
	}
	if old := f.Swap("board", flush("second", errors.New("disk full"))); old == nil {
		t.Error("the first board's flush was not handed back")
	}
	f.Swap("other", flush("other", nil))
	if err := f.Run(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Run: %v", err)
	}
	slices.Sort(ran)
	if !slices.Equal(ran, []string{"other", "second"}) {
		t.Errorf("ran %v", ran)
	}
	if err := f.Run(); err != nil || len(ran) != 2 {
		t.Error("a flush ran twice")
	}
	var none *kit.Flushes
	if none.Swap("x", nil) != nil || none.Run() != nil {
		t.Error("nil flushes did something")
	}
}

// TestMenuMoves: a menu's cursor moves within its rows, and its keys act
// only while it has some; the legend shows in the full help only.
func TestMenuMoves(t *testing.T) {
	cursor := 0
	moves := kit.ListMoves(&cursor, 3, "move")
	for _, step := range []struct {
		key  string
		want int
	}{{"down", 1}, {"down", 2}, {"down", 2}, {"up", 1}, {"home", 0}, {"up", 0}, {"end", 2}} {
		if _, ok := moves.Handle(screentest.Key(step.key)); !ok || cursor != step.want {
			t.Errorf("%s: cursor %d, want %d", step.key, cursor, step.want)
		}
	}
	if screentest.Offers(kit.ListMoves(&cursor, 0, "move").KeyMap(), "down") {
		t.Error("an empty menu offers its moves")
	}
	km := kit.WithLegend(moves.KeyMap(), [][2]string{{"*", "changed"}})
	if len(km.ShortHelp()) != len(moves.KeyMap().ShortHelp()) {
		t.Error("the legend is in the footer")
	}
	full := km.FullHelp()
	if last := full[len(full)-1]; len(last) != 1 || last[0].Help().Desc != "changed" {
		t.Errorf("the full help's last column: %v", last)
	}
}

// TestLookForSigningKey: after an API-key login Home looks for a key that
// signs for the funding account; none found, the warning names the ways.
func TestLookForSigningKey(t *testing.T) {
	r := screentest.NewStatusRig(t)
	msgs := screentest.RunCmdSync(t, kit.LookForSigningKey(r.App))
	if len(msgs) != 1 {
		t.Fatalf("looked and found %v", msgs)
	}
	m := msgs[0].(kit.SigningKeyMsg)
	if m.NoKey == nil {
		t.Fatal("a key was found where none is")
	}
	view := screentest.OneLine(kit.MissingKeyView(r.App, m, 80))
	for _, want := range []string{"No key here signs for " + m.NoKey.Account.Hex(), "svcwallet key import", "SVCWALLET_PRIVATE_KEY"} {
		if !strings.Contains(view, want) {
			t.Errorf("the warning lacks %q:\n%s", want, view)
		}
	}
	if kit.MissingKeyView(r.App, kit.SigningKeyMsg{}, 80) != "" {
		t.Error("a warning when a key was found")
	}
}

// TestCheckEndsWithItsSession: the background check asks only as the
// account it was started for, and a login as another landing on the same
// client ends it quietly. Asked as that other account, whose service does
// not know the quote, the check said the withdrawal had vanished ("funds
// may have been debited, contact support") while it was paid and pending.
func TestCheckEndsWithItsSession(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.Made(sandbox.DestCompleted, "25")
	screentest.RecordTimers(r.App)
	start := r.App.StartCheck(records(t, r))
	if _, err := r.App.Client().Login(t.Context(), exchange.APIKey(sandbox.NoChainAPIKey)); err != nil {
		t.Fatal(err)
	}
	calls := r.StatusCalls.Load()
	queue := []tea.Cmd{start}
	for len(queue) > 0 {
		for _, msg := range screentest.RunCmdSync(t, queue[0]) {
			switch m := msg.(type) {
			case kit.CheckedMsg:
				t.Fatalf("the check went on as another account's, and said %v", screentest.RunCmdSync(t, m.Said))
			case tui.ErrorMsg:
				t.Fatalf("the check said %v", m.Err)
			}
			if next, ok := r.App.UpdateCheck(msg); ok {
				queue = append(queue, next)
			}
		}
		queue = queue[1:]
	}
	if asked := r.StatusCalls.Load() - calls; asked != 0 {
		t.Errorf("%d status requests went as the account logged in meanwhile", asked)
	}
	if r.App.Checking() != 0 || r.App.Check != nil {
		t.Errorf("the check outlived its session: %d still to hear about", r.App.Checking())
	}
}

// TestEndedSessionEndsItsCheck: a session the service ended takes its
// wallet key and its check of unfinished withdrawals with it, as a logout
// does (App.EndSession): the check's answers taken until the login opened
// were worded as the next session's failures.
func TestEndedSessionEndsItsCheck(t *testing.T) {
	r := screentest.NewStatusRig(t)
	r.Made(sandbox.DestCompleted, "25")
	r.App.StartCheck(records(t, r))
	r.App.Target.Kept = true
	if r.App.SessionEnded(screentest.SessionEnded()) == nil {
		t.Fatal("the ended session did not open the login")
	}
	if r.App.Check != nil || r.App.Signer != nil || r.App.Target.Kept {
		t.Errorf("outlived the ended session: check %v, key %v, kept %v", r.App.Check != nil, r.App.Signer != nil, r.App.Target.Kept)
	}
}
