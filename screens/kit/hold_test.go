package kit_test

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
)

// TestKeyHoldWaitsForItsNewEnd: a hold ticks once a second while it
// holds, so the seconds it says (Left) are redrawn as they drop; a key that
// came while held moves the hold's end, and the ticks run on to the new
// one, so the footer is redrawn with the keys once they act, never left
// saying they are held. No tick runs once the hold is over.
func TestKeyHoldWaitsForItsNewEnd(t *testing.T) {
	var waits []time.Duration
	var over tea.Msg
	timer := func(d time.Duration, msg tea.Msg) tea.Cmd {
		waits, over = append(waits, d), msg
		return func() tea.Msg { return msg }
	}
	start := screentest.Now
	var h kit.KeyHold
	h.StartOn(start, timer)
	if h.Left(start) != 2 || h.InSeconds(start) != "in 2 s" {
		t.Fatalf("as it shows the hold says %d (%q), want 2 s", h.Left(start), h.InSeconds(start))
	}
	late := kit.ShownGuard - 200*time.Millisecond
	if act, _ := h.Update(screentest.Key("enter"), start.Add(late), timer); act != nil {
		t.Fatalf("a key %v into the hold was not held", late)
	}
	at := start
	for range 5 {
		at = at.Add(waits[len(waits)-1])
		if _, cmd := h.Update(over, at, timer); cmd == nil {
			break
		}
	}
	// Moved to 2.3 s, the hold says 2 s at 1 s in, and 1 s from 1.3 s.
	if want := []time.Duration{time.Second, late + kit.KeyGuard - kit.ShownGuard, time.Second}; len(waits) != 3 || waits[0] != want[0] || waits[1] != want[1] || waits[2] != want[2] {
		t.Fatalf("the hold ticked after %v, want %v", waits, want)
	}
	newEnd := start.Add(late + kit.KeyGuard)
	if !at.Equal(newEnd) || h.Holds(newEnd) || h.Left(newEnd) != 0 {
		t.Fatalf("the ticks ended at %v, want the new end %v (holds %v)", at.Sub(start), newEnd.Sub(start), h.Holds(newEnd))
	}
	if act, _ := h.Update(screentest.Key("x"), newEnd, timer); act == nil {
		t.Fatal("a key once the hold ended was held")
	}

	// A paste's enter, with the key before it, begins a hold when none
	// is on, whose end is told as Start's is.
	waits = nil
	later := newEnd.Add(time.Second)
	h.Update(screentest.Key("x"), later, timer)
	if act, cmd := h.Update(screentest.Key("enter"), later, timer); act != nil || cmd == nil || len(waits) != 1 || waits[0] != kit.KeyGuard {
		t.Fatalf("a pasted enter: acted on %v, waits %v; want held and its end told after %v", act, waits, kit.KeyGuard)
	}
}

// TestKeyHoldSaysItsSeconds: what a hold says drops a second at each
// whole second left, rounded up, never to "0 s" while it holds; a second
// hold begun on a first (Start again) ticks alone, so no second chain of
// ticks runs beside it; another hold (a review's stop) takes none of them.
func TestKeyHoldSaysItsSeconds(t *testing.T) {
	start := screentest.Now
	var h kit.KeyHold
	var overs []tea.Msg
	timer := func(d time.Duration, msg tea.Msg) tea.Cmd {
		overs = append(overs, msg)
		return func() tea.Msg { return msg }
	}
	h.StartOn(start, timer)
	for _, c := range []struct {
		at   time.Duration
		says string
	}{{0, "in 2 s"}, {999 * time.Millisecond, "in 2 s"}, {time.Second, "in 1 s"}, {1999 * time.Millisecond, "in 1 s"}} {
		if got := h.InSeconds(start.Add(c.at)); got != c.says {
			t.Errorf("%v into the hold it says %q, want %q", c.at, got, c.says)
		}
	}
	first := overs[0]
	h.StartOn(start.Add(500*time.Millisecond), timer)
	if _, cmd := h.Update(first, start.Add(time.Second), timer); cmd != nil {
		t.Fatal("the first hold's tick ticks on beside the second's")
	}
	var other kit.KeyHold // begun as often as h
	other.StartOn(start, timer)
	other.StartOn(start, timer)
	if next, ok := other.Ticked(overs[1], start.Add(time.Second), timer); ok || next != nil {
		t.Fatal("another hold took this one's tick")
	}
	if _, ok := h.Ticked(overs[1], start.Add(time.Second), timer); !ok {
		t.Fatal("the hold did not take its own tick")
	}
}

// TestKeyHoldOutlastsARepeatDelay: an enter held down on the screen
// before a question repeats first after the terminal's repeat delay (X11's
// 660 ms, KDE's 600 ms, Windows' up to 1 s), which comes into the hold a
// question starts as it shows, however early a key came into it before
// (a key held moves the hold's end on, never sooner).
func TestKeyHoldOutlastsARepeatDelay(t *testing.T) {
	start := screentest.Now
	for _, delay := range []time.Duration{600 * time.Millisecond, 660 * time.Millisecond, 700 * time.Millisecond, 999 * time.Millisecond} {
		var h kit.KeyHold
		h.Start(start)
		if act, _ := h.Update(screentest.Key("enter"), start.Add(delay), nil); act != nil {
			t.Errorf("a first repeat %v after the question showed answered it", delay)
		}
		var k kit.KeyHold
		k.Start(start)
		k.Update(screentest.Key("x"), start.Add(50*time.Millisecond), nil)
		if act, _ := k.Update(screentest.Key("enter"), start.Add(delay), nil); act != nil {
			t.Errorf("a key 50 ms into the hold ended it before a first repeat %v after the question showed", delay)
		}
	}
}

// TestKeyHoldKnowsAKeyReadWithTheOneBefore: an unbracketed paste's keys
// are read at once, but a loaded machine may take tens of milliseconds
// over each, so the gap between them, measured as they are taken, can
// exceed intent.PasteGap (seen in tmux: "x" and a carriage return pasted
// 8, 11 and over 25 ms apart, and then signed). A key taken before the
// terminal answered the question asked after the one before (tui.Settle:
// the answer comes after every key already sent) was read with it and
// answers nothing; one typed after the answer answers.
func TestKeyHoldKnowsAKeyReadWithTheOneBefore(t *testing.T) {
	at := screentest.Now
	var h kit.KeyHold
	act, settle := h.Update(screentest.Key("x"), at, nil)
	if act == nil || settle == nil {
		t.Fatalf("a key with no hold on: acts %v, settles %v", act != nil, settle != nil)
	}
	if act, cmd := h.Update(screentest.Key("enter"), at.Add(100*time.Millisecond), nil); act != nil || h.Waiting() || cmd == nil {
		t.Fatal("an enter read with the key before, taken 100 ms after it, was not held")
	}

	var g kit.KeyHold
	_, settle = g.Update(screentest.Key("x"), at, nil)
	answer := screentest.Answered(t, settle)
	if act, _ := g.Update(tui.SettledMsg{Tag: answer.Tag + 1}, at.Add(time.Millisecond), nil); act == nil {
		t.Fatal("the hold took another key's answer")
	}
	if act, _ := g.Update(answer, at.Add(time.Millisecond), nil); act != nil {
		t.Fatal("the hold did not take its key's answer")
	}
	if g.Update(screentest.Key("enter"), at.Add(30*time.Millisecond), nil); !g.Waiting() {
		t.Fatal("an enter typed 30 ms after the key before, which had settled, was held")
	}
}

// TestKeyHoldSettlesOnlyOnTheTerminalsAnswer: what a key's settling
// sends can reach the screen before the next key of the same raw paste
// (Bubble Tea's input reader hands keys over one at a time, a command's
// message comes from another goroutine), and on a loaded machine that key
// is taken more than intent.PasteGap later: seen in tmux, "x⏎⏎" pasted
// unbracketed signed. Delivered first, it settles nothing: the enter 30 ms
// on was read with the x and is held.
func TestKeyHoldSettlesOnlyOnTheTerminalsAnswer(t *testing.T) {
	at := screentest.Now
	var h kit.KeyHold
	_, settle := h.Update(screentest.Key("x"), at, nil)
	for _, m := range screentest.RunAll(settle) {
		h.Update(m, at.Add(time.Millisecond), nil)
	}
	if act, _ := h.Update(screentest.Key("enter"), at.Add(30*time.Millisecond), nil); act != nil || h.Waiting() {
		t.Fatal("an enter pasted with the x, taken 30 ms after it once the x's settling was delivered, answered")
	}
}

// TestKeyHoldSettlesByTimeWhereNoAnswerComes: a terminal that never
// answers leaves every key unsettled; a key a KeyGuard after the one
// before is a person's all the same, and one sooner is held.
func TestKeyHoldSettlesByTimeWhereNoAnswerComes(t *testing.T) {
	at := screentest.Now
	var h kit.KeyHold
	h.Update(screentest.Key("x"), at, nil)
	if h.Update(screentest.Key("enter"), at.Add(kit.KeyGuard-time.Millisecond), nil); h.Waiting() {
		t.Fatal("an enter just short of a KeyGuard after an unanswered key answered")
	}
	var g kit.KeyHold
	g.Update(screentest.Key("x"), at, nil)
	if g.Update(screentest.Key("enter"), at.Add(kit.KeyGuard), nil); !g.Waiting() {
		t.Fatal("an enter a KeyGuard after an unanswered key was held: a terminal that never answers can never sign")
	}
}

// TestKeyHoldAnswerThenAnyKeyIsAPaste: an answer key waits for its
// settling; any key before it, an answer key or not, came with it: neither
// acts, even on the settling, keys are held and the hold says a paste.
func TestKeyHoldAnswerThenAnyKeyIsAPaste(t *testing.T) {
	at := screentest.Now
	var h kit.KeyHold
	act, settle := h.Update(screentest.Key("enter"), at, nil)
	tag, _, ok := screentest.Settling(settle)
	if act != nil || !ok || !h.Waiting() {
		t.Fatalf("an enter acted at once (%v) or waits for no settling (%v)", act, ok)
	}
	if act, _ := h.Update(screentest.Key("x"), at.Add(kit.KeyGuard/2), nil); act != nil || h.Waiting() {
		t.Fatal("a key before the enter's settling was let through, or left the enter waiting")
	}
	if act, _ := h.Update(tui.SettledMsg{Tag: tag}, at.Add(kit.KeyGuard), nil); act != nil {
		t.Fatal("the enter a key came after acted on its settling")
	}
	if !h.Pasted() || !h.Holds(at.Add(kit.KeyGuard)) {
		t.Fatal("the paste holds no keys, or is not said")
	}
}

// TestKeyHoldHeldAgainDropsTheWaitingAnswer: an answer key waiting when
// its question shows again (ShownAgainMsg) or keys are held again (Again)
// answered what was hidden: its settling, past the new hold, acts on
// nothing.
func TestKeyHoldHeldAgainDropsTheWaitingAnswer(t *testing.T) {
	at := screentest.Now
	for name, again := range map[string]func(h *kit.KeyHold){
		"shown again": func(h *kit.KeyHold) { h.Update(tui.ShownAgainMsg{}, at, nil) },
		"again":       func(h *kit.KeyHold) { h.Again(at, nil) },
	} {
		var h kit.KeyHold
		_, settle := h.Update(screentest.Key("enter"), at, nil)
		tag, _, _ := screentest.Settling(settle)
		again(&h)
		if act, _ := h.Update(tui.SettledMsg{Tag: tag}, at.Add(kit.ShownGuardTold+kit.ShownGuard), nil); act != nil {
			t.Errorf("%s: the waiting enter acted on its settling past the new hold", name)
		}
	}
}

// TestKeyHoldCrossedAnswerIsAPaste: an answer key whose settling says
// input crossed it (tui.SettledMsg.Crossed: focus events, an answer nobody
// asked, a timer past on a terminal that answers) came with that input,
// as a raw paste's: it acts on nothing, keys are held and the hold says a
// paste. Its settling uncrossed acts.
func TestKeyHoldCrossedAnswerIsAPaste(t *testing.T) {
	at := screentest.Now
	for _, crossed := range []bool{true, false} {
		var h kit.KeyHold
		_, settle := h.Update(screentest.Key("enter"), at, nil)
		tag, _, _ := screentest.Settling(settle)
		act, _ := h.Update(tui.SettledMsg{Tag: tag, Crossed: crossed}, at.Add(kit.KeyGuard), nil)
		if crossed && (act != nil || !h.Pasted() || !h.Holds(at.Add(kit.KeyGuard)) || h.Waiting()) {
			t.Fatalf("a crossed enter: acted %v, said a paste %v, holds %v", act != nil, h.Pasted(), h.Holds(at.Add(kit.KeyGuard)))
		}
		if !crossed && act == nil {
			t.Fatal("an enter settled with nothing between did not act")
		}
	}
}

// TestKeyHoldLateAnswerDoesNothing: an answer key whose answer never came
// (tui.SettledMsg.Late, said by the root) acts on nothing and holds keys
// again; it was no paste, and the hold does not say one.
func TestKeyHoldLateAnswerDoesNothing(t *testing.T) {
	at := screentest.Now
	var h kit.KeyHold
	_, settle := h.Update(screentest.Key("enter"), at, nil)
	tag, _, _ := screentest.Settling(settle)
	late := at.Add(tui.AnswerWithin)
	if act, _ := h.Update(tui.SettledMsg{Tag: tag, Late: true}, late, nil); act != nil || h.Pasted() || !h.Holds(late) || h.Waiting() {
		t.Fatalf("a late enter: acted %v, said a paste %v, holds %v, waits %v", act != nil, h.Pasted(), h.Holds(late), h.Waiting())
	}
}

// TestKeyHoldNamesADroppedKeyShown: a key dropped in a hold is named as
// it shows (n, esc, ctrl+x); a raw paste's character that a terminal acts
// on or hides (a bidi control turning the words after it) is "a key", in
// words that still read ("a key is not a key" did not).
func TestKeyHoldNamesADroppedKeyShown(t *testing.T) {
	start := screentest.Now
	timer := func(time.Duration, tea.Msg) tea.Cmd { return nil }
	for _, c := range []struct {
		k    tea.KeyPressMsg
		said string
	}{{screentest.Key("n"), "n does nothing here: "}, {screentest.Key("esc"), "esc does nothing here: "},
		{tea.KeyPressMsg{Code: 0x202e, Text: "\u202e"}, "a key does nothing here: "}} {
		var h kit.KeyHold
		h.StartOn(start, timer)
		h.Update(c.k, start.Add(time.Second), timer)
		if got := h.DroppedSaid(start.Add(time.Second), nil, false); got != c.said {
			t.Errorf("%q dropped is said %q, want %q", c.k.String(), got, c.said)
		}
	}
}

// TestKeyHoldSaysADroppedKeyActsOnlyWhereItDoes: a key dropped in a hold
// is said not taken (it acts once keys are enabled) only where the
// screen's bindings, the hold aside, take it: on, or saying why it is off;
// esc where it goes back. Any other key is said to do nothing on the
// screen, and once the hold is over nothing is said.
func TestKeyHoldSaysADroppedKeyActsOnlyWhereItDoes(t *testing.T) {
	start := screentest.Now
	timer := func(time.Duration, tea.Msg) tea.Cmd { return nil }
	nothing := func() tea.Cmd { return nil }
	keys := kit.Bindings{
		{Key: key.NewBinding(key.WithKeys("n")), On: true, Do: nothing},
		{Key: key.NewBinding(key.WithKeys("r")), On: false, Do: nothing},
		{Key: key.NewBinding(key.WithKeys("enter")), On: false, Do: nothing, Off: nothing},
	}
	for _, c := range []struct {
		k    string
		back bool
		acts bool
	}{{"n", false, true}, {"r", false, false}, {"enter", false, true}, {"x", false, false},
		{"esc", true, true}, {"esc", false, false}} {
		var h kit.KeyHold
		h.StartOn(start, timer)
		at := start.Add(time.Second)
		h.Update(screentest.Key(c.k), at, timer)
		want := kit.NotAKey(c.k)
		if c.acts {
			want = kit.NotTaken(c.k)
		}
		if got := h.DroppedSaid(at, keys, c.back); got != want {
			t.Errorf("%s dropped (esc goes back: %v) is said %q, want %q", c.k, c.back, got, want)
		}
		if over := start.Add(kit.ShownGuard); h.DroppedSaid(over, keys, c.back) != "" {
			t.Errorf("%s dropped is still said once the hold is over", c.k)
		}
	}
}

// TestKeysEnabledIn: every held question says when its keys act in these
// words, whole seconds rounded up and never under 1, as the hold that
// holds them counts (KeyHold.Left): the same words on each screen.
func TestKeysEnabledIn(t *testing.T) {
	for _, c := range []struct {
		left time.Duration
		says string
	}{{2 * time.Second, "keys are enabled in 2 s"}, {1001 * time.Millisecond, "keys are enabled in 2 s"},
		{time.Second, "keys are enabled in 1 s"}, {kit.KeyGuard, "keys are enabled in 1 s"}, {0, "keys are enabled in 1 s"}} {
		if got := kit.KeysEnabledIn(c.left); got != c.says {
			t.Errorf("%v left says %q, want %q", c.left, got, c.says)
		}
	}
	var h kit.KeyHold
	h.StartOn(screentest.Now, func(time.Duration, tea.Msg) tea.Cmd { return nil })
	if got := h.KeysEnabled(screentest.Now.Add(time.Second)); got != "keys are enabled in 1 s" {
		t.Errorf("a second into the hold it says %q", got)
	}
}
