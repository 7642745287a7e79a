package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestToast(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	_, timers := send(m, ShowError(errors.New("quote expired,\n\x1b[31mrequest a new one\x1b[0m"))())
	if timers != 1 {
		t.Fatalf("error toast scheduled %d dismiss timers, want 1", timers)
	}
	out := checkFrame(t, m, 80, 24)
	if !strings.Contains(ansi.Strip(out), "Error: quote expired, request a new one") || strings.Contains(out, "\x1b[31m") {
		t.Fatalf("toast not cleaned to one user-facing line:\n%q", out)
	}
	if home.h != 21 {
		t.Fatalf("content area with a one-line toast: %d, want 21", home.h)
	}
	stale := m.toast.tag

	send(m, ShowInfo("Address copied")())
	send(m, dismissToastMsg{tag: stale})
	if !strings.Contains(ansi.Strip(m.render()), "Address copied") {
		t.Fatal("an old dismiss timer removed a newer toast")
	}
	send(m, dismissToastMsg{tag: m.toast.tag})
	m.View() // the content area is given back with the frame drawn
	if m.toast.text != "" || home.h != 22 {
		t.Fatalf("own dismiss timer did not clear the toast: %q, h=%d", m.toast.text, home.h)
	}

	send(m, ShowInfo("Saved")())
	send(m, press("j"))
	if m.toast.text != "" || received[tea.KeyPressMsg](home) != 1 {
		t.Fatal("a key press should dismiss the toast and still reach the screen")
	}
	if ShowError(nil) != nil {
		t.Fatal("ShowError(nil) should show nothing")
	}
}

func TestTopBar(t *testing.T) {
	m, _ := newRoot(t, 120, 40)
	setTopBar(m, TopBar{
		Env: "staging", ChainID: 327, Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SubAccount: "1234", SessionExpires: fixedNow.Add(24*time.Hour - 30*time.Second),
	})
	bar := ansi.Strip(strings.Split(checkFrame(t, m, 120, 40), "\n")[0])
	for _, want := range []string{"svcwallet", "Home", "staging", "chain 327", "0xf39F…2266", "sub 1234", "session 23h59m"} {
		if !strings.Contains(bar, want) {
			t.Errorf("top bar %q lacks %q", bar, want)
		}
	}
	send(m, tea.WindowSizeMsg{Width: 60, Height: 20})
	bar = ansi.Strip(strings.Split(checkFrame(t, m, 60, 20), "\n")[0])
	if !strings.Contains(bar, "staging") || !strings.Contains(bar, "0xf39F…2266") || !strings.Contains(bar, "chain 327") || strings.Contains(bar, "session") {
		t.Errorf("narrow top bar should keep env, chain and account, drop the session: %q", bar)
	}
}

// TestTopBarKeepsTheChain: at 80 columns the review's long title leaves room
// for the environment and its chain id, not for the session's countdown too;
// the chain goes before the session does (issue 35 item 12).
func TestTopBarKeepsTheChain(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	setTopBar(m, TopBar{Env: "local", ChainID: 327, Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SessionExpires: fixedNow.Add(29*24*time.Hour + 23*time.Hour)})
	home.title = "Withdraw: review and sign"
	bar := ansi.Strip(strings.Split(checkFrame(t, m, 80, 24), "\n")[0])
	if !strings.Contains(bar, "local │ chain 327") || !strings.Contains(bar, home.title) {
		t.Errorf("the review's top bar at 80 columns should keep the environment and its chain: %q", bar)
	}
}

// TestTopBarKeepsTheTitle: the body does not repeat a screen's title, so
// a narrow bar drops account and session before it, and cuts a title too
// long for the bar with an ellipsis instead of dropping it.
func TestTopBarKeepsTheTitle(t *testing.T) {
	m, home := newRoot(t, 60, 20)
	setTopBar(m, TopBar{Env: "staging", Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SessionExpires: fixedNow.Add(time.Hour)})
	home.title = "Withdraw: destination and amount"
	bar := ansi.Strip(strings.Split(checkFrame(t, m, 60, 20), "\n")[0])
	if !strings.Contains(bar, home.title) || !strings.Contains(bar, "staging") || strings.Contains(bar, "session") {
		t.Errorf("narrow top bar should keep the title and the env, drop the session: %q", bar)
	}
	home.title = "Withdrawal never executed: the quote expired, long ago"
	bar = ansi.Strip(strings.Split(checkFrame(t, m, 60, 20), "\n")[0])
	if !strings.Contains(bar, "Withdrawal never executed") || !strings.Contains(bar, "…") || !strings.Contains(bar, "staging") {
		t.Errorf("a title too long for the bar should be cut, not dropped: %q", bar)
	}
}

func TestSessionLeft(t *testing.T) {
	for _, c := range []struct {
		left time.Duration
		want string
	}{
		{30 * 24 * time.Hour, "session 30d00h"},
		{48*time.Hour + 59*time.Minute, "session 2d00h"},
		{48*time.Hour - time.Second, "session 47h59m"},
		{24 * time.Hour, "session 24h00m"},
		{24*time.Hour - time.Second, "session 23h59m"},
		{61 * time.Minute, "session 1h01m"},
		{59*time.Minute + 59*time.Second, "session 59m"},
		{30 * time.Second, "session <1m"},
		{0, "session expired"},
		{-time.Hour, "session expired"},
	} {
		if got := sessionLeft(fixedNow.Add(c.left), fixedNow); got != c.want {
			t.Errorf("%v left: %q, want %q", c.left, got, c.want)
		}
	}
}

func TestShortAccount(t *testing.T) {
	for in, want := range map[string]string{
		"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266": "0xf39F…2266",
		"acct-7":                           "acct-7",
		"an-opaque-account-identifier-123": "an-opaque-accou…",
		"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb9226Z": "0xf39Fd6e51aad8…",
	} {
		if got := shortAccount(in); got != want {
			t.Errorf("shortAccount(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC":  "0x3C44…93BC",
		"TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9":          "TN3W4H…b3m9",
		"7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV": "7EcDhS…FLtV",
		"short-13-char": "short-13-char",
	} {
		if got := ShortAddress(in); got != want {
			t.Errorf("ShortAddress(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSessionCountdownTicks (issue 28 item 18): while the top bar shows
// the session's countdown, one timer is pending, due when its text
// changes; when it fires the bar shows the new text on an idle screen and
// the next one is set; an expired session, a countdown the bar has no
// room for, or none, set none.
func TestSessionCountdownTicks(t *testing.T) {
	now := fixedNow
	c := NewCommon(true, func() time.Time { return now })
	type timer struct {
		d   time.Duration
		msg tea.Msg
	}
	var timers []timer
	m := New(newFake(c, "Home"), Options{Theme: "dark", Common: c, Timer: func(d time.Duration, msg tea.Msg) tea.Cmd {
		timers = append(timers, timer{d, msg})
		return nil
	}})
	setTopBar(m, TopBar{Env: "staging", SessionExpires: fixedNow.Add(time.Hour + 30*time.Second)})
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	bar := func() string { s, _, _ := strings.Cut(ansi.Strip(m.View().Content), "\n"); return s }
	if len(timers) != 1 || timers[0].d != 30*time.Second+time.Nanosecond || !strings.Contains(bar(), "session 1h00m") {
		t.Fatalf("timers %v, bar %q: want one, due in 30s, with 1h00m shown", timers, bar())
	}
	send(m, press("down")) // other updates add no timer while one is pending
	if len(timers) != 1 {
		t.Fatalf("%d timers pending, want 1", len(timers))
	}
	now = now.Add(timers[0].d)
	send(m, timers[0].msg)
	if !strings.Contains(bar(), "session 59m") || len(timers) != 2 || timers[1].d != time.Minute {
		t.Fatalf("after the tick: bar %q, timers %v; want 59m and the next a minute on", bar(), timers)
	}
	send(m, timers[0].msg) // a stale tick sets none
	if len(timers) != 2 {
		t.Fatalf("a stale tick set a timer: %v", timers)
	}
	now = fixedNow.Add(time.Hour + 30*time.Second - 10*time.Second)
	send(m, timers[1].msg)
	if !strings.Contains(bar(), "session <1m") || len(timers) != 3 || timers[2].d != 10*time.Second {
		t.Fatalf("under a minute: bar %q, timers %v; want <1m and a tick at the expiry", bar(), timers)
	}
	now = now.Add(timers[2].d)
	send(m, timers[2].msg)
	if !strings.Contains(bar(), "session expired") || len(timers) != 3 {
		t.Fatalf("expired: bar %q, timers %v; want no more", bar(), timers)
	}

	// A tick that finds the clock where it was (a test's frozen clock) sets
	// no other for the same instant: it would fire at once, for ever.
	timers = nil
	setTopBar(m, TopBar{Env: "staging", SessionExpires: now.Add(time.Hour)})
	send(m, press("down"))
	if len(timers) != 1 || timers[0].d != time.Nanosecond {
		t.Fatalf("timers %v, want one in 1ns (1h00m shown, 59m next)", timers)
	}
	send(m, timers[0].msg)
	if len(timers) != 1 {
		t.Fatalf("a tick on a clock that did not move set another: %v", timers)
	}

	// At 60 columns with a long environment name the countdown is left out
	// of the bar: nothing ticks for it.
	timers = nil
	m2 := New(newFake(c, "A long screen title here"), Options{Theme: "dark", Common: c, Timer: func(d time.Duration, msg tea.Msg) tea.Cmd {
		timers = append(timers, timer{d, msg})
		return nil
	}})
	setTopBar(m2, TopBar{Env: "production-eu-west-with-a-long-name", ChainID: 325, Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SessionExpires: now.Add(time.Hour)})
	send(m2, tea.WindowSizeMsg{Width: 60, Height: 20})
	if top, _, _ := strings.Cut(ansi.Strip(m2.View().Content), "\n"); strings.Contains(top, "session") || len(timers) != 0 {
		t.Fatalf("bar %q without the countdown set %d timers", top, len(timers))
	}
}

// TestSessionChangeIsWhenTheTextChanges: the countdown's next redraw is the
// first instant its text differs, whether it shows days, hours or minutes.
func TestSessionChangeIsWhenTheTextChanges(t *testing.T) {
	for _, left := range []time.Duration{30 * 24 * time.Hour, 72*time.Hour + 30*time.Minute, 48*time.Hour + time.Second, 48 * time.Hour, 47*time.Hour + 30*time.Second, 61 * time.Minute, 90 * time.Second, 30 * time.Second} {
		expires := fixedNow.Add(left)
		next := sessionChange(expires, fixedNow)
		if sessionLeft(expires, next) == sessionLeft(expires, fixedNow) || sessionLeft(expires, next.Add(-time.Nanosecond)) != sessionLeft(expires, fixedNow) {
			t.Errorf("%v left: next change at %v shows %q, just before %q, now %q", left, next.Sub(fixedNow),
				sessionLeft(expires, next), sessionLeft(expires, next.Add(-time.Nanosecond)), sessionLeft(expires, fixedNow))
		}
	}
}

// TestTopBarKeepsTheTitleApart (seen in tmux at 80 columns): whatever the
// title's length, at least two spaces part it from the environment, so
// "Builder authorized" never reads as one phrase with "local".
func TestTopBarKeepsTheTitleApart(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	setTopBar(m, TopBar{Env: "local", ChainID: 327, Account: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
		SessionExpires: fixedNow.Add(29*24*time.Hour + 23*time.Hour)})
	for n := 1; n <= 70; n++ {
		home.title = strings.Repeat("t", n)
		bar := ansi.Strip(strings.Split(checkFrame(t, m, 80, 24), "\n")[0])
		before, _, ok := strings.Cut(bar, "local")
		if !ok || !strings.HasSuffix(before, "  ") {
			t.Fatalf("title of %d: the environment is not two spaces from it: %q", n, bar)
		}
	}
}

// TestStandingStaysUntilOver: a standing word (a wait on another
// process's lock) shows above the toast and stays through keys, toasts
// and their timers, until its own StandingOverMsg, which gives its rows
// back; another's over leaves it up.
func TestStandingStaysUntilOver(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	tag := NextTag()
	send(m, StandingMsg{Tag: tag, Text: "waiting for another process\x1b[31m; svcwallet waits for it to finish…"})
	m.View()
	if home.h != 21 {
		t.Fatalf("content area with a one-line standing word: %d, want 21", home.h)
	}
	send(m, ShowInfo("Saved")())
	send(m, dismissToastMsg{tag: m.toast.tag})
	send(m, press("j"))
	send(m, StandingOverMsg{Tag: NextTag()})
	if out := ansi.Strip(checkFrame(t, m, 80, 24)); !strings.Contains(out, "waiting for another process; svcwallet waits for it to finish…") {
		t.Fatalf("the standing word went before its wait was over:\n%s", out)
	}
	send(m, ShowInfo("Saved")())
	if out := ansi.Strip(checkFrame(t, m, 80, 24)); !strings.Contains(out, "waits for it to finish…") || !strings.Contains(out, "Saved") {
		t.Fatalf("a toast beside the standing word is not shown:\n%s", out)
	}
	send(m, press("j"))
	send(m, StandingOverMsg{Tag: tag})
	m.View()
	if out := ansi.Strip(m.render()); strings.Contains(out, "waits for it to finish") || home.h != 22 {
		t.Fatalf("the standing word stayed after its wait was over (h=%d):\n%s", home.h, out)
	}
}

// TestStandingWordsKeepTheContentRows: however many waits stand at once,
// their words take one toast's rows at most, the oldest first, so the
// content area keeps its rows at 60x20 beside a toast and the full help.
func TestStandingWordsKeepTheContentRows(t *testing.T) {
	m, home := newRoot(t, 60, 20)
	many := newFake(home.common, "Many keys")
	send(m, Push(many)())
	many.keys = columns{longHelpColumn("a"), longHelpColumn("b")}
	send(m, press("?"))
	for i := range 8 {
		send(m, StandingMsg{Tag: NextTag(), Text: fmt.Sprintf("wait %d: waiting for another process on /a/long/path/to/a/file.lock; svcwallet waits for it to finish…", i)})
	}
	send(m, ErrorMsg{Err: errors.New(strings.Repeat("something failed on a long path ", 6))})
	out := ansi.Strip(checkFrame(t, m, 60, 20))
	if many.h < 3 || !strings.Contains(out, "wait 0: waiting for another process") {
		t.Fatalf("eight standing words left the content %d rows:\n%s", many.h, out)
	}
}
