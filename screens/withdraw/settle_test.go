package withdraw

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestRawPasteSettledFirstNeverSigns (seen once in nine tries in tmux at
// 80x24 on a loaded machine): "x⏎⏎" pasted unbracketed at the review,
// after its hold, signed. What the x's settling sent overtook the paste's
// enter (a command's message comes from another goroutine than the keys),
// and the enter came more than intent.PasteGap later: the review took it
// for a person's answer. Delivered before the enter, it settles nothing.
func TestRawPasteSettledFirstNeverSigns(t *testing.T) {
	r, h, now := shownReview(t)
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard)
	_, settle := screentest.Press(r, "x")
	for _, m := range screentest.RunAll(settle) {
		r.Update(m)
	}
	*now = now.Add(30 * time.Millisecond)
	if screentest.Press(r, "enter"); r.gate.Sending || h.withdraws != 0 {
		t.Fatal("an enter pasted with the x signed once the x's settling overtook it")
	}
}

// terminal is the review under the console's root, with the terminal's
// side played by the test: what a key's command sends is handed to the
// root at once, before the next key (the race's order), and the question
// a key's settling asks is answered only when the test says, after every
// key sent before it.
type terminal struct {
	root *tui.Model
	now  *time.Time
	r    *reviewScreen
	// asked counts the questions written and not yet answered.
	asked int
	// holdQuiet: the answers' quiets (quiets) wait for the test (quiet).
	holdQuiet bool
	quiets    []tea.Msg
}

func underRoot(r *reviewScreen, now *time.Time) *terminal {
	tm := &terminal{now: now, r: r}
	tm.root = tui.New(r, tui.Options{Theme: "dark", Common: r.app.Common, Timer: tm.timer})
	tm.root.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return tm
}

// timer is the root's: an answer's quiet (tui.SettleQuiet) passes at once
// with no input after it, unless the test holds it (quiets); the session
// countdown's redraw never comes.
func (tm *terminal) timer(d time.Duration, msg tea.Msg) tea.Cmd {
	if d != tui.SettleQuiet {
		return nil
	}
	if tm.holdQuiet {
		tm.quiets = append(tm.quiets, msg)
		return nil
	}
	return func() tea.Msg { return msg }
}

// quiet ends the answers' quiets the test held, and delivers what follows
// unless it signed.
func (tm *terminal) quiet() {
	quiets := tm.quiets
	tm.quiets = nil
	for _, q := range quiets {
		if _, cmd := tm.root.Update(q); !tm.r.gate.Sending {
			tm.deliver(cmd)
		}
	}
}

// key hands the root k after gap and, unless it signed, what its command
// sends, and what follows from that.
func (tm *terminal) key(k string, gap time.Duration) {
	*tm.now = tm.now.Add(gap)
	_, cmd := tm.root.Update(screentest.Key(k))
	if !tm.r.gate.Sending {
		tm.deliver(cmd)
	}
}

func (tm *terminal) deliver(cmd tea.Cmd) {
	for _, m := range screentest.RunAll(cmd) {
		if m == tea.Msg(tea.RawMsg{Msg: ansi.RequestPrimaryDeviceAttributes}) {
			tm.asked++
			continue
		}
		if _, next := tm.root.Update(m); !tm.r.gate.Sending {
			tm.deliver(next)
		}
	}
}

// answer answers every question written so far, and delivers what
// follows unless it signed.
func (tm *terminal) answer() {
	for ; tm.asked > 0; tm.asked-- {
		_, cmd := tm.root.Update(uv.PrimaryDeviceAttributesEvent{1, 2})
		if !tm.r.gate.Sending {
			tm.deliver(cmd)
		}
	}
}

// typed is key k typed after gap: the terminal answers before the next key.
func (tm *terminal) typed(k string, gap time.Duration) {
	tm.key(k, gap)
	tm.answer()
}

// TestRawPasteUnderTheRootNeverSigns: under the console's root, "x⏎⏎"
// and "abc⏎" pasted unbracketed and taken 30 ms apart, each key's
// settling delivered before the next key, sign nothing: the terminal's
// answer to the question asked after each key comes after the paste. Once
// it came, an enter typed a KeyGuard on (the paste's held keys) signs.
func TestRawPasteUnderTheRootNeverSigns(t *testing.T) {
	for _, paste := range [][]string{{"x", "enter", "enter"}, {"a", "b", "c", "enter"}} {
		r, h, now := shownReview(t)
		r.Update(r.checkBridge()())
		*now = now.Add(kit.ShownGuard + time.Second)
		tm := underRoot(r, now)
		for _, k := range paste {
			tm.key(k, 30*time.Millisecond)
		}
		if r.gate.Sending || h.withdraws != 0 {
			t.Fatalf("the paste %q signed", paste)
		}
		tm.answer()
		if tm.typed("enter", kit.KeyGuard); !r.gate.Sending {
			t.Fatalf("after the paste %q, a typed enter did not sign:\n%s", paste, ansi.Strip(r.View()))
		}
	}
}

// TestTypedEnterSignsOnceAnswered: a passphrase typed fast and an enter
// 40 ms after its last letter sign once the terminal answered the question
// asked after that letter and then after the enter; a terminal that never
// answers lets an enter a KeyGuard after the last key sign once it was let
// wait a KeyGuard more with no key after it (TestSilentTerminalSignsOnce).
func TestTypedEnterSignsOnceAnswered(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	k := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 80, 24, signer.Found{Place: signer.KeyInKeystore, Path: "/k/UTC--key"})
	tm := underRoot(k, now)
	for _, c := range "pw" {
		tm.key(string(c), 60*time.Millisecond)
		tm.answer()
	}
	if tm.typed("enter", 40*time.Millisecond); !k.gate.Sending {
		t.Fatalf("an enter typed 40 ms after the answered passphrase did not sign:\n%s", ansi.Strip(k.View()))
	}

	app, now = screentest.LoggedInApp(t)
	timers := screentest.RecordTimers(app)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 80, 24, signer.Found{Place: signer.KeyDemo})
	tm = underRoot(r, now)
	tm.key("x", 0)
	if tm.key("enter", kit.KeyGuard-time.Millisecond); r.gate.Sending || r.gate.Waiting() {
		t.Fatal("an enter within a KeyGuard of an unanswered key was taken")
	}
	*now = now.Add(kit.KeyGuard)
	*timers = nil
	if tm.key("enter", kit.KeyGuard); r.gate.Sending || !r.gate.Waiting() {
		t.Fatal("where the terminal never answers, an enter a KeyGuard after the last key signed before it was let wait, or does not wait")
	}
	*now = now.Add(kit.KeyGuard)
	for _, tmr := range *timers {
		tm.root.Update(tmr.Msg)
	}
	if !r.gate.Sending {
		t.Fatalf("where the terminal never answers, an enter a KeyGuard after the last key did not sign:\n%s", ansi.Strip(r.View()))
	}
}
