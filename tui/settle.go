package tui

import (
	"reflect"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// SettleMsg asks the terminal a question after the key Tag was taken: its
// answer (SettledMsg) is written after every byte the terminal sent before
// it, so every key of a raw paste that key came in comes first. A command's
// message does not: it can overtake keys the input reader has read but not
// yet handed over. The question is Primary Device Attributes, which every
// terminal answers and no key sends (a cursor position report can be a
// shifted F3).
type SettleMsg struct{ Tag Tag }

// Settle returns the command a screen gives to have the key tag settled,
// and also beside it (a timer bounding the wait for the answer).
func Settle(tag Tag, also ...tea.Cmd) tea.Cmd { return settling{tag, tea.Batch(also...)}.ask }

// settling is a key's settling: a method value, so a test's terminal
// knows the command by its code and answers as a terminal would.
type settling struct {
	tag  Tag
	also tea.Cmd
}

func (s settling) ask() tea.Msg {
	if s.also == nil {
		return SettleMsg{Tag: s.tag}
	}
	return tea.BatchMsg{settling{tag: s.tag}.ask, s.also}
}

// SettledMsg: the terminal answered the question asked after the key Tag
// was taken, or a screen's timer says it waited long enough for an answer.
// It goes to the top screen (the one that asked, for an answer) while the
// terminal is not too small.
type SettledMsg struct {
	Tag Tag
	// Crossed: the key did not come alone, so it answers nothing: input
	// came between it and its settling (any event the terminal sent: a
	// key, focus, mouse, a paste's marks, an answer nobody asked), or a
	// terminal that answers had not answered when the timer said (a paste
	// padded past the timer).
	Crossed bool
	// Late: a terminal that answers did not answer within AnswerWithin
	// (the answer lost, or a paste's padding still being read): the key
	// answers nothing; the root says so.
	Late bool
}

// AnswerWithin bounds the wait for the answer of a terminal that answers,
// far past any round trip: a key with no answer by then is given up
// (SettledMsg.Late, late).
const AnswerWithin = 5 * time.Second

// NoAnswer is what the root says when a key's answer never came.
const NoAnswer = "The terminal did not answer after that key, so it did nothing: type it again in a moment."

// lateMsg: AnswerWithin passed since the screen's timer for the key Tag.
type lateMsg struct{ tag Tag }

// SettleQuiet is how long the terminal's answer waits for more input
// before it settles the key (intent.PasteGap): a paste can carry a faked
// answer, and what the paste carries after it comes at once.
const SettleQuiet = 25 * time.Millisecond

// settleMost bounds the questions out: a terminal that never answers is
// asked no more once this many wait, and its keys settle by time alone.
const settleMost = 64

// asked is a key waiting for the terminal's answer, and the screen on top
// when it was asked.
type asked struct {
	tag    Tag
	screen Screen
}

// waiting is a key not settled yet: whether input crossed it, the
// releases let pass (its own, a modifier's), and whether its answer came
// and it waits SettleQuiet.
type waiting struct {
	tag      Tag
	screen   Screen
	crossed  bool
	freed    int
	answered bool
	// timed: the screen's timer came while its answer was out (late).
	timed bool
	// down: the keys down when it was asked about, but itself; each
	// one's release once is a finger lifted after it (typing rolled), not
	// input between.
	down []rune
}

// quietMsg: SettleQuiet passed since the key Tag's answer.
type quietMsg struct{ tag Tag }

// askSettle asks the terminal after the key msg names was taken. Answers
// come one each, in order, so the next answer is the oldest question's.
func (m *Model) askSettle(msg SettleMsg) tea.Cmd {
	if len(m.waits) >= settleMost {
		m.waits = m.waits[1:]
	}
	// A key pressed before the answer to the question asked after the one
	// before (pressedOut) was sent before it: with that key, as a paste's.
	m.waits = append(m.waits, waiting{tag: msg.Tag, screen: m.top(), crossed: m.pressedOut, down: without(m.down, m.lastPress)})
	m.pressedOut = false
	if len(m.settling) >= settleMost {
		return nil
	}
	m.settling = append(m.settling, asked{tag: msg.Tag, screen: m.top()})
	// Every question is given up once unanswered long past a round trip
	// with no input coming (late): one lost would hold every key after it.
	return tea.Batch(tea.Raw(ansi.RequestPrimaryDeviceAttributes), After(m.timer, AnswerWithin, lateMsg{msg.Tag}))
}

// settled takes the terminal's answer to the oldest question; the key it
// settles waits SettleQuiet for input that would cross it (quieted). An
// answer nobody waits for (a question of another program's, or a paste's)
// is dropped, and crosses every key waiting. No screen sees the answer.
func (m *Model) settled(uv.PrimaryDeviceAttributesEvent) tea.Cmd {
	if len(m.settling) == 0 {
		return nil
	}
	a := m.settling[0]
	m.settling = m.settling[1:]
	m.answers = true
	w := m.wait(a.tag)
	if w == nil {
		return nil
	}
	if a.screen != m.top() || m.hidesTop() {
		m.forget(a.tag)
		return nil
	}
	w.answered = true
	return After(m.timer, SettleQuiet, quietMsg{a.tag})
}

// quieted tells the screen that asked, if it is still on top and shown
// (hidesTop), that the key tag settled, and whether input crossed it.
func (m *Model) quieted(tag Tag) tea.Cmd {
	w := m.wait(tag)
	if w == nil {
		return nil
	}
	done := *w
	m.forget(tag)
	if done.screen != m.top() || m.hidesTop() {
		return nil
	}
	return m.updateTop(SettledMsg{Tag: tag, Crossed: done.crossed})
}

// settledByTime passes on a screen's timer (never while the question is
// hidden, hidesTop), crossed if input came since the key. Once the
// terminal has answered in this run, a key settles by its answer alone:
// the timer then only bounds the wait by AnswerWithin (late), since a raw
// paste's padding, however long it takes, comes before the answer.
func (m *Model) settledByTime(msg SettledMsg) tea.Cmd {
	w := m.wait(msg.Tag)
	if w != nil && w.answered {
		return nil // its answer settles it after SettleQuiet
	}
	if w != nil && m.answers && m.out(msg.Tag) {
		w.timed = true // its question's bound (late) gives it up
		return nil
	}
	msg.Crossed = w != nil && w.crossed
	m.forget(msg.Tag)
	if m.hidesTop() {
		return nil
	}
	return m.updateTop(msg)
}

// late gives up the key tag, still unanswered AnswerWithin on, and says
// so. Its question stays out while input still comes (a paste's padding
// still being read: its answer comes after it, and keys before it came
// with the paste); once none came for AnswerWithin its answer was lost,
// and the questions up to its own are given up, so a lost answer shifts
// the pairing of none after it.
func (m *Model) late(tag Tag) tea.Cmd {
	var cmd tea.Cmd
	if w := m.wait(tag); w != nil && !w.answered && w.timed {
		m.forget(tag)
		if !m.hidesTop() {
			cmd = tea.Batch(m.updateTop(SettledMsg{Tag: tag, Late: true}), m.showToast(true, NoAnswer))
		}
	}
	if !m.out(tag) {
		return cmd
	}
	if m.common.Now().Sub(m.lastInput) < AnswerWithin {
		return tea.Batch(cmd, After(m.timer, AnswerWithin, lateMsg{tag}))
	}
	for i, a := range m.settling {
		if a.tag == tag {
			m.settling = m.settling[i+1:]
			break
		}
	}
	return cmd
}

// out: the question asked after the key tag is out (not answered).
func (m *Model) out(tag Tag) bool {
	for _, a := range m.settling {
		if a.tag == tag {
			return true
		}
	}
	return false
}

// resumed: the console was stopped (ctrl+z) and continued. The shell may
// have read the answers to the questions out, so none is waited for, and
// a key that waited answers nothing after the stop.
func (m *Model) resumed() {
	m.settling, m.down = nil, nil // the shell read what came while stopped
	for i := range m.waits {
		m.waits[i].crossed, m.waits[i].answered = true, false
	}
}

// cross marks every key waiting crossed by msg, input from the terminal.
// A key's own release, and a modifier's, pass (two for each key); the
// answer to a question out is its settling, not input between.
func (m *Model) cross(msg tea.Msg) {
	if !fromTerminal(msg) {
		return
	}
	m.lastInput = m.common.Now()
	if len(m.waits) == 0 {
		return
	}
	if _, ok := msg.(uv.PrimaryDeviceAttributesEvent); ok && len(m.settling) > 0 {
		return
	}
	r, release := msg.(tea.KeyReleaseMsg)
	if release {
		m.down = without(m.down, r.Code)
	}
	own := release && (r.Code == m.lastPress || noKey(tea.KeyPressMsg{Code: r.Code}))
	for i := range m.waits {
		w := &m.waits[i]
		if lifted := without(w.down, r.Code); release && len(lifted) < len(w.down) {
			w.down = lifted
			continue
		}
		if own && w.freed < 2 {
			w.freed++
			continue
		}
		w.crossed = true
	}
}

// downMost bounds the keys held down that the root remembers: ten
// fingers; a paste pressing more forgets the oldest.
const downMost = 10

// pressed remembers the key code down until its release.
func (m *Model) pressed(code rune) {
	m.down = append(without(m.down, code), code)
	if len(m.down) > downMost {
		m.down = m.down[1:]
	}
}

// without is a copy of codes with the first code dropped, if there.
func without(codes []rune, code rune) []rune {
	kept := make([]rune, 0, len(codes))
	for i, c := range codes {
		if c == code {
			return append(kept, codes[i+1:]...)
		}
		kept = append(kept, c)
	}
	return kept
}

// fromTerminal: msg is input the terminal sent (Bubble Tea's or, for what
// it does not name, ultraviolet's), not the console's own message nor a
// resize.
func fromTerminal(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyMsg, tea.MouseMsg, tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg,
		tea.FocusMsg, tea.BlurMsg, tea.ClipboardMsg, tea.ForegroundColorMsg,
		tea.BackgroundColorMsg, tea.CursorColorMsg, tea.CursorPositionMsg,
		tea.CapabilityMsg, tea.TerminalVersionMsg, tea.KeyboardEnhancementsMsg,
		tea.ModeReportMsg:
		return true
	case tea.WindowSizeMsg:
		return false
	}
	t := reflect.TypeOf(msg)
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && t.PkgPath() == uvPath
}

// uvPath is ultraviolet's import path: the events Bubble Tea passes on
// as they are (unknown sequences, device attributes) are its types.
var uvPath = reflect.TypeOf(uv.UnknownEvent("")).PkgPath()

// wait is the key tag's waiting, nil when none.
func (m *Model) wait(tag Tag) *waiting {
	for i := range m.waits {
		if m.waits[i].tag == tag {
			return &m.waits[i]
		}
	}
	return nil
}

// forget drops the key tag's waiting.
func (m *Model) forget(tag Tag) {
	for i := range m.waits {
		if m.waits[i].tag == tag {
			m.waits = append(m.waits[:i], m.waits[i+1:]...)
			return
		}
	}
}

// hidesTop: the too-small notice or the help covers the top screen, so a
// key waiting for its settling there (kit.KeyHold) would answer what is
// not shown; "?" opened the help between a pasted enter and its answer.
// Shown again, the screen holds its keys anew (ShownAgainMsg).
func (m *Model) hidesTop() bool { return m.tooSmall() || m.fullHelp }
