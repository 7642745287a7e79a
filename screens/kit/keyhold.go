package kit

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/tui"
)

// KeyGuard is how long keys stay held after each key that came while they
// were held, so a held Enter cannot approve what the user never saw
// (DESIGN.md §5): the dwell plain mode and the command line hold their
// questions to as well.
const KeyGuard = intent.ReviewDwell

// ShownGuard is how long keys are held from when a question shows: longer
// than a terminal's repeat delay, so a held key's first repeat comes into
// the hold (intent.ShownDwell).
const ShownGuard = intent.ShownDwell

// ShownGuardTold is ShownGuard where the terminal tells repeats
// (tui.Common.RepeatsTold): they are held whenever they come.
const ShownGuardTold = intent.ShownDwellTold

// KeyHold holds keys for ShownGuard from when a question that signs, pays
// or trusts showed (Start), again when it shows again after the too-small
// notice (which hid it and took every key), and for KeyGuard from each key
// that came while they were held (Update): a key held down repeats past
// any dwell, a person's answer comes after a pause. A repeat the terminal
// names as one (the kitty keyboard protocol's event types) is held
// whenever it comes. An answer key (answerKeys) acts only once the
// terminal answered the question asked after it (tui.Settle) with no key
// between, or settleWithin on where no answer ever came: a raw paste's
// keys all come before that answer, so an answer key with any key after
// it is a paste's. The root tells when other input came between
// (tui.SettledMsg.Crossed: focus events padding a paste) or the answer
// never came (Late): either drops it. Used by the reviews, the bridge
// confirmation and the notice of an earlier journal.
type KeyHold struct {
	// until is when the hold ends.
	until time.Time
	// last is when the key before came: one within intent.PasteGap of it
	// came with it, as a raw paste (a terminal without bracketed paste, or
	// text that opens none), and answers nothing.
	last time.Time
	// unsettled: the key before (tag) is not settled yet: the terminal has
	// not answered the question asked after it was taken (tui.Settle). A
	// paste's keys are read at once, and a loaded machine takes longer
	// than intent.PasteGap over each; the answer comes after every key the
	// terminal sent before it, so a key taken before it came with the key
	// before, however far apart they were taken.
	unsettled bool
	tag       tui.Tag
	// answer is the answer key waiting for its settling (tag): it acts on
	// it, and a key that comes first makes both a paste's; nil when none
	// waits.
	answer *tea.KeyPressMsg
	// pasted: the hold on was begun by keys that came together, which the
	// screen says answer nothing (Pasted).
	pasted bool
	// told: the terminal tells repeats, so a question holds keys for
	// ShownGuardTold from when it shows (Tell).
	told bool
	// dropped is the last key the hold dropped (no repeat), which the
	// screen names while it holds (DroppedSaid): a decline (n, esc) typed
	// in the hold waits too, never dropped unsaid. nil when none.
	dropped *tea.KeyPressMsg
	// ticking is the hold's one chain of ticks (keyHoldOverMsg): one
	// each second while it holds, so the seconds it says (Left) redraw. A
	// tag, never another hold's: a screen with two holds (a review's stop)
	// gives each its own ticks.
	ticking tui.Tag
}

// Tell says whether the terminal tells a held key's repeats
// (tui.Common.RepeatsTold), before the hold starts.
func (h *KeyHold) Tell(told bool) { h.told = told }

// shown is how long keys are held from when the question shows.
func (h *KeyHold) shown() time.Duration {
	if h.told {
		return ShownGuardTold
	}
	return ShownGuard
}

// settleWithin bounds unsettled: a terminal that never answers leaves a key
// unsettled, and a key a KeyGuard after it is a person's; an answer key
// waiting acts then (its settling by time is a tui.SettledMsg too, which
// the root passes on only where the terminal never answered in this run,
// crossed if input came since, and drops while the question is hidden).
const settleWithin = KeyGuard

// answerKeys are the keys that answer a question that signs, pays or
// trusts (enter on a review, y to its second question, Y to a changed
// bridge address), and n, the second question's no: one that came with
// the key before (KeyHold.last), or before the key after it, is dropped as
// a paste's, which the screen says. A no moves no money, but a paste's n
// withdrew the question unsaid.
var answerKeys = key.NewBinding(key.WithKeys("enter", "y", "Y", "n"))

// keyHoldOverMsg is a second of a hold gone, or its end, only so the
// screen redraws the seconds it says and the keys it offers: the hold
// itself reads the clock (Holds). chain is the tick's (KeyHold.ticking).
type keyHoldOverMsg struct{ chain tui.Tag }

// tick is the next of the hold's ticks from now: when the whole seconds
// left (Left) next drop, or the hold ends. It starts the one chain anew.
func (h *KeyHold) tick(now time.Time, timer func(time.Duration, tea.Msg) tea.Cmd) tea.Cmd {
	h.ticking = tui.NextTag()
	return h.next(now, timer)
}

// next is the chain's next tick, nil once the hold is over: no tick runs
// while no hold does.
func (h *KeyHold) next(now time.Time, timer func(time.Duration, tea.Msg) tea.Cmd) tea.Cmd {
	left := h.until.Sub(now)
	if left <= 0 {
		return nil
	}
	step := left % time.Second
	if step == 0 {
		step = time.Second
	}
	return tui.After(timer, step, keyHoldOverMsg{h.ticking})
}

// Ticked: msg is this hold's tick, and next the one after it (nil once the
// hold is over); another hold's, or a chain begun again since, is not.
// A screen with a second hold gives it every message first.
func (h *KeyHold) Ticked(msg tea.Msg, now time.Time, timer func(time.Duration, tea.Msg) tea.Cmd) (next tea.Cmd, ok bool) {
	if t, is := msg.(keyHoldOverMsg); !is || t.chain != h.ticking {
		return nil, false
	}
	return h.next(now, timer), true
}

// Left is the hold's time left at now in whole seconds, rounded up, as
// the screen says it ("2 s"), so what it says holds each second; 0 when
// keys are not held.
func (h KeyHold) Left(now time.Time) int { return wholeSeconds(h.until.Sub(now)) }

// wholeSeconds is left in whole seconds, rounded up; 0 when none is left.
func wholeSeconds(left time.Duration) int {
	if left <= 0 {
		return 0
	}
	return int((left + time.Second - 1) / time.Second)
}

// inSeconds is left as a screen says it: "in 2 s", never under 1.
func inSeconds(left time.Duration) string {
	return "in " + strconv.Itoa(max(wholeSeconds(left), 1)) + " s"
}

// InSeconds is Left as a screen says it: "in 2 s".
func (h KeyHold) InSeconds(now time.Time) string { return inSeconds(h.until.Sub(now)) }

// KeysEnabledIn is how every question whose keys are held says when they
// act, left from now: "keys are enabled in 2 s". The one wording; each
// screen places it in its own sentence.
func KeysEnabledIn(left time.Duration) string { return "keys are enabled " + inSeconds(left) }

// KeysEnabled is KeysEnabledIn of the hold at now.
func (h KeyHold) KeysEnabled(now time.Time) string { return KeysEnabledIn(h.until.Sub(now)) }

// Start holds keys for ShownGuard (ShownGuardTold, Tell) from now.
func (h *KeyHold) Start(now time.Time) tea.Cmd { return h.StartOn(now, nil) }

// StartOn is Start with the hold's end told through timer (App.Timer,
// which tests fake); nil is a tea.Tick. An answer key waiting answered the
// question before and is dropped.
func (h *KeyHold) StartOn(now time.Time, timer func(time.Duration, tea.Msg) tea.Cmd) tea.Cmd {
	h.until, h.answer, h.pasted, h.dropped = now.Add(h.shown()), nil, false, nil
	return h.tick(now, timer)
}

// Again holds keys for KeyGuard from now, or on to the hold's end if that
// is later (a key in a question's ShownGuard leaves it whole), and tells
// the end through timer.
func (h *KeyHold) Again(now time.Time, timer func(time.Duration, tea.Msg) tea.Cmd) tea.Cmd {
	h.hold(now)
	h.answer, h.dropped = nil, nil
	return h.tick(now, timer)
}

// hold moves the hold's end to a KeyGuard from now, never sooner.
func (h *KeyHold) hold(now time.Time) {
	if end := now.Add(KeyGuard); end.After(h.until) {
		h.until = end
	}
}

// Holds reports whether keys are held at now.
func (h KeyHold) Holds(now time.Time) bool { return now.Before(h.until) }

// PasteAnswersNothing is what a question held by a paste's keys (Pasted)
// says, before what to do.
const PasteAnswersNothing = "A paste answers nothing"

// Pasted: keys that came together (a raw paste) began the hold on, which
// the screen says while it holds: a paste is not an answer.
func (h KeyHold) Pasted() bool { return h.pasted }

// DroppedSaid is what a screen says first of the last key typed while
// keys were held, which did nothing, while they still are; "" when none or
// once they act. keys and back are the screen's (Bindings.Takes): a key
// that acts there once keys are enabled was not taken (NotTaken); one that
// never does does nothing on the screen (NotAKey), so no words promise
// that it will act.
func (h KeyHold) DroppedSaid(now time.Time, keys Bindings, back bool) string {
	return h.droppedSaid(now, func(k tea.KeyPressMsg) bool { return keys.Takes(k, back) })
}

// droppedSaid is DroppedSaid where takes says whether a key acts once
// keys are enabled.
func (h KeyHold) droppedSaid(now time.Time, takes func(tea.KeyPressMsg) bool) string {
	k, acts := h.droppedActs(now, takes)
	switch {
	case k == "":
		return ""
	case acts:
		return NotTaken(k)
	}
	return NotAKey(k)
}

// droppedActs names the key DroppedSaid says ("" when none) and whether it
// acts once keys are enabled (takes).
func (h KeyHold) droppedActs(now time.Time, takes func(tea.KeyPressMsg) bool) (k string, acts bool) {
	if !h.Holds(now) || h.dropped == nil {
		return "", false
	}
	return shownKey(*h.dropped), takes(*h.dropped)
}

// shownKey is how a dropped key is named: as it shows (n, esc, ctrl+x),
// or "a key" where a terminal would act on it or hide it (a raw paste's
// bidi control turned the words after it).
func shownKey(k tea.KeyPressMsg) string {
	if s := k.String(); safetext.Printable(s) && !strings.Contains(s, " ") {
		return s
	}
	return "a key"
}

// NotTaken is what a screen says of a key its hold dropped that acts there
// once keys are enabled (DroppedSaid), before what to read: "n was not
// taken: ".
func NotTaken(k string) string { return k + " was not taken: " }

// NotAKey is what a screen says of a key its hold dropped that does
// nothing there once keys are enabled either, before what to read: "x
// does nothing here: " (a key not shown, "a key", reads too).
func NotAKey(k string) string { return k + " does nothing here: " }

// Update takes what a hold is told and returns what the screen acts on:
// msg, the answer key its settling lets act, or nil (held: the screen does
// nothing with it). A key while keys are held is dropped and holds them a
// KeyGuard again, as showing again after the too-small notice does; an
// answer key waits for its settling, and a key before that drops both; a
// hold's end that such a key moved on waits again for its new end, so the
// screen redraws its keys when they act.
func (h *KeyHold) Update(msg tea.Msg, now time.Time, timer func(time.Duration, tea.Msg) tea.Cmd) (act tea.Msg, cmd tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return h.key(msg, now, timer)
	case tui.SettledMsg:
		if msg.Tag != h.tag {
			return msg, nil // another hold's
		}
		h.unsettled = false
		if h.answer == nil || h.Holds(now) {
			h.answer = nil
			return nil, nil
		}
		if msg.Crossed || msg.Late { // input came with it, as a paste's key between; or its answer was lost
			h.last, h.pasted = now, h.pasted || msg.Crossed
			return nil, h.Again(now, timer)
		}
		k := *h.answer
		h.answer, h.pasted = nil, false
		return k, nil
	case keyHoldOverMsg:
		next, _ := h.Ticked(msg, now, timer)
		return nil, next
	case tui.ShownAgainMsg:
		return nil, h.StartOn(now, timer)
	}
	return msg, nil
}

// key is Update for a key.
func (h *KeyHold) key(msg tea.KeyPressMsg, now time.Time, timer func(time.Duration, tea.Msg) tea.Cmd) (tea.Msg, tea.Cmd) {
	gap := now.Sub(h.last)
	answers := key.Matches(msg, answerKeys)
	// A repeat (where the terminal tells one) is a key held down, never an
	// answer, nor anything else a person gave what they saw. A key before
	// the waiting answer's settling came with it, as a paste's.
	pasted := h.answer != nil || (gap < intent.PasteGap || h.unsettled && gap < settleWithin) && answers
	held := h.Holds(now)
	if !held && !pasted && !msg.IsRepeat {
		if answers {
			return nil, h.wait(msg, now, timer)
		}
		return msg, h.took(now)
	}
	// Held a KeyGuard from now: what was read with it is held too.
	h.last, h.unsettled, h.answer = now, false, nil
	h.pasted = h.pasted || pasted && !held
	if held && !msg.IsRepeat {
		h.dropped = &msg
	}
	h.hold(now)
	if !held { // a paste's key began the hold: its ticks redraw the keys
		return nil, h.tick(now, timer)
	}
	return nil, nil
}

// wait keeps the answer key k taken at now until it settles: the
// terminal's answer to the question asked after it, or settleWithin.
func (h *KeyHold) wait(k tea.KeyPressMsg, now time.Time, timer func(time.Duration, tea.Msg) tea.Cmd) tea.Cmd {
	h.took(now)
	h.answer = &k
	return tui.Settle(h.tag, tui.After(timer, settleWithin, tui.SettledMsg{Tag: h.tag}))
}

// Waiting: an answer key waits for its settling; any key now drops it.
func (h KeyHold) Waiting() bool { return h.answer != nil }

// Then is what a key the hold let through does (cmd), or, when it did
// nothing, settle: a key that acted changed what the next one meets (a
// send, a hold, another screen), which the next one is judged by.
func (h *KeyHold) Then(settle, cmd tea.Cmd) tea.Cmd {
	if cmd != nil {
		h.unsettled = false
		return cmd
	}
	return settle
}

// took notes a key taken at now, and returns what settles it: the
// terminal's answer to a question asked after it (tui.Settle).
func (h *KeyHold) took(now time.Time) tea.Cmd {
	h.last, h.unsettled, h.tag = now, true, tui.NextTag()
	return tui.Settle(h.tag)
}
