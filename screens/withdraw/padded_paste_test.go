package withdraw

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
)

// paddedReview is the review under the root with its hold over and its
// timers recorded, and whether the terminal answered a key before.
func paddedReview(t testing.TB, answeredBefore bool) (*reviewScreen, *hostileSandbox, *terminal, *[]screentest.Timer) {
	t.Helper()
	r, h, now := shownReview(t)
	timers := screentest.RecordTimers(r.app)
	r.Update(r.checkBridge()())
	*now = now.Add(kit.ShownGuard + time.Second)
	tm := underRoot(r, now)
	if answeredBefore {
		tm.typed("x", 0)
		*now = now.Add(kit.KeyGuard)
	}
	*timers = nil
	return r, h, tm, timers
}

// fire hands the root the timers the review set (the answer key's
// settling by time), a KeyGuard on.
func (tm *terminal) fire(timers *[]screentest.Timer) {
	*tm.now = tm.now.Add(kit.KeyGuard)
	fired := *timers
	*timers = nil
	for _, tmr := range fired {
		if _, cmd := tm.root.Update(tmr.Msg); !tm.r.gate.Sending {
			tm.deliver(cmd)
		}
	}
}

// TestPaddedPasteNeverSigns (seen in tmux: "⏎" + 3000×ESC[I + "⏎" pasted
// unbracketed at the review signed): the padding took longer than the
// enter's settling by time, which acted before the second enter was read.
// Focus events between the enter and its settling cross it; on a terminal
// that answered before, time alone settles nothing. A typed enter then
// signs.
func TestPaddedPasteNeverSigns(t *testing.T) {
	for _, answeredBefore := range []bool{false, true} {
		for _, padding := range []int{300, 0} {
			if padding == 0 && !answeredBefore {
				continue // a terminal never heard from: a person's enter alone
			}
			r, h, tm, timers := paddedReview(t, answeredBefore)
			tm.key("enter", 0)
			for range padding {
				tm.root.Update(tea.FocusMsg{})
			}
			tm.fire(timers)
			tm.key("enter", time.Millisecond)
			tm.answer()
			if r.gate.Sending || h.withdraws != 0 {
				t.Fatalf("answered before %v, %d focus events: the padded paste signed", answeredBefore, padding)
			}
			tm.typed("enter", kit.KeyGuard)
			if !r.gate.Sending {
				t.Fatalf("answered before %v, %d focus events: a typed enter after the paste did not sign:\n%s", answeredBefore, padding, ansi.Strip(r.View()))
			}
		}
	}
}

// TestFakedAnswerInAPasteNeverSigns: "⏎ESC[?62c⏎" pasted unbracketed, the
// faked answer taken after the question the enter asked: the answer waits
// tui.SettleQuiet, in which the paste's second enter comes. A typed enter
// signs once its answer's quiet passed.
func TestFakedAnswerInAPasteNeverSigns(t *testing.T) {
	r, h, tm, _ := paddedReview(t, false)
	tm.holdQuiet = true
	tm.key("enter", 0)
	tm.root.Update(uv.PrimaryDeviceAttributesEvent{62})
	tm.asked--
	tm.key("enter", time.Millisecond)
	tm.quiet()
	tm.answer()
	tm.quiet()
	if r.gate.Sending || h.withdraws != 0 {
		t.Fatal("a paste with a faked answer signed")
	}
	tm.typed("enter", kit.KeyGuard)
	if tm.quiet(); !r.gate.Sending {
		t.Fatalf("a typed enter after the paste did not sign:\n%s", ansi.Strip(r.View()))
	}
}

// BenchmarkPaddedPaste is the root's Update and View over a raw paste's
// padding at the review (3000×ESC[I between two enters, seen in tmux):
// each focus event changes nothing shown.
func BenchmarkPaddedPaste(b *testing.B) {
	_, _, tm, _ := paddedReview(b, true)
	tm.key("enter", 0)
	b.ResetTimer()
	for b.Loop() {
		for range 3000 {
			tm.root.Update(tea.FocusMsg{})
			tm.root.View()
		}
	}
}
