package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// da1 is a terminal's answer to Primary Device Attributes (tmux's).
var da1 = uv.PrimaryDeviceAttributesEvent{1, 2}

// settledTags are the tags of the SettledMsgs f was given.
func settledTags(f *fakeScreen) []Tag {
	var tags []Tag
	for _, m := range f.got {
		if s, ok := m.(SettledMsg); ok {
			tags = append(tags, s.Tag)
		}
	}
	return tags
}

// quiets records the root's timers: an answer's quiet (SettleQuiet)
// passes only when the test says (quiet).
// The bounds on a lost answer (AnswerWithin) pass when it says (late).
type quiets struct{ msgs, lates []tea.Msg }

func (q *quiets) timer(d time.Duration, msg tea.Msg) tea.Cmd {
	switch d {
	case SettleQuiet:
		q.msgs = append(q.msgs, msg)
	case AnswerWithin:
		q.lates = append(q.lates, msg)
	}
	return nil
}

// late ends every bound on a lost answer out.
func (q *quiets) late(m *Model) {
	lates := q.lates
	q.lates = nil
	for _, msg := range lates {
		send(m, msg)
	}
}

// quietRoot is newRoot with its answers' quiets recorded.
func quietRoot(t *testing.T) (*Model, *fakeScreen, *quiets) {
	m, home := newRoot(t, 80, 24)
	q := &quiets{}
	m.timer = q.timer
	return m, home, q
}

// quiet ends every quiet out: SettleQuiet passed with no input.
func (q *quiets) quiet(m *Model) {
	msgs := q.msgs
	q.msgs = nil
	for _, msg := range msgs {
		send(m, msg)
	}
}

// TestSettleAsksTheTerminal: a key's settling (SettleMsg) is a question
// written to the terminal, Primary Device Attributes, whose answer no key
// sends; the screen is not given the question.
func TestSettleAsksTheTerminal(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	msgs, _ := send(m, SettleMsg{Tag: 1})
	if len(msgs) != 1 || msgs[0] != tea.Msg(tea.RawMsg{Msg: ansi.RequestPrimaryDeviceAttributes}) {
		t.Fatalf("a key's settling sent %#v, want the terminal asked for its attributes", msgs)
	}
	for _, got := range home.got {
		if _, ok := got.(SettleMsg); ok {
			t.Fatal("the screen was given the question")
		}
	}
}

// TestSettledInTheOrderAsked: the terminal answers each question once, in
// order, so each answer settles the oldest key waiting and no later one:
// a later key's own answer is still to come after every key sent with it.
// The screen is given SettledMsg, never the answer itself; an answer no
// question waits for is dropped.
func TestSettledInTheOrderAsked(t *testing.T) {
	m, home, q := quietRoot(t)
	send(m, da1) // nothing asked
	send(m, SettleMsg{Tag: 7})
	send(m, SettleMsg{Tag: 8})
	send(m, da1)
	q.quiet(m)
	if got := settledTags(home); len(got) != 1 || got[0] != 7 {
		t.Fatalf("one answer settled %v, want the first key asked (7) only", got)
	}
	send(m, da1)
	q.quiet(m)
	send(m, da1) // one answer too many
	if got := settledTags(home); len(got) != 2 || got[1] != 8 {
		t.Fatalf("two answers settled %v, want 7 then 8", got)
	}
	for _, got := range home.got {
		if _, ok := got.(uv.PrimaryDeviceAttributesEvent); ok {
			t.Fatal("the screen was given the terminal's answer")
		}
	}
}

// TestSettledOnlyOnTheScreenThatAsked: an answer that comes once another
// screen is on top is dropped: that screen asked nothing, and the one that
// did is not shown.
func TestSettledOnlyOnTheScreenThatAsked(t *testing.T) {
	m, home, q := quietRoot(t)
	send(m, SettleMsg{Tag: 3})
	other := newFake(m.common, "Other")
	send(m, PushMsg{Screen: other})
	send(m, da1)
	send(m, PopMsg{Screen: other})
	if len(settledTags(home)) != 0 || len(settledTags(other)) != 0 {
		t.Fatalf("an answer on another screen settled %v there and %v on the screen that asked", settledTags(other), settledTags(home))
	}
	send(m, SettleMsg{Tag: 4})
	send(m, da1)
	q.quiet(m)
	if got := settledTags(home); len(got) != 1 || got[0] != 4 {
		t.Fatalf("the next answer settled %v, want 4: the dropped one was the earlier question's", got)
	}
}

// TestSettleAsksNoMoreOfATerminalThatNeverAnswers: once settleMost
// questions wait, a terminal that answers none is asked no more.
func TestSettleAsksNoMoreOfATerminalThatNeverAnswers(t *testing.T) {
	m, _ := newRoot(t, 80, 24)
	for i := range settleMost {
		if msgs, _ := send(m, SettleMsg{Tag: Tag(i)}); len(msgs) != 1 {
			t.Fatalf("question %d was not asked", i)
		}
	}
	if msgs, _ := send(m, SettleMsg{Tag: settleMost}); len(msgs) != 0 {
		t.Fatalf("with %d questions unanswered the root asked again: %#v", settleMost, msgs)
	}
}

// TestSettledNeverWhileHidden: while the too-small notice or the help
// hides the question, neither the terminal's answer nor a settling by time
// reaches the screen: an answer key waiting for it (kit.KeyHold) would
// answer what is not shown ("⏎?" pasted: the help opened by the paste's
// "?"). Shown again, the screen holds its keys anew (ShownAgainMsg).
func TestSettledNeverWhileHidden(t *testing.T) {
	m, home := newRoot(t, 80, 24)
	send(m, SettleMsg{Tag: 5})
	send(m, tea.WindowSizeMsg{Width: 40, Height: 16})
	send(m, da1)
	send(m, SettledMsg{Tag: 5})
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if got := settledTags(home); len(got) != 0 {
		t.Fatalf("while too small the screen was told %v settled", got)
	}
	send(m, SettleMsg{Tag: 7})
	send(m, press("?"))
	send(m, da1)
	send(m, SettledMsg{Tag: 7})
	if got := settledTags(home); !m.fullHelp || len(got) != 0 {
		t.Fatalf("under the help (open %v) the screen was told %v settled", m.fullHelp, got)
	}
	for m.fullHelp {
		send(m, press("?"))
	}
	send(m, SettledMsg{Tag: 6})
	if got := settledTags(home); len(got) != 1 || got[0] != 6 {
		t.Fatalf("shown, a settling by time reached the screen as %v, want [6]", got)
	}
}
