package tui

import (
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
type SettledMsg struct{ Tag Tag }

// settleMost bounds the questions out: a terminal that never answers is
// asked no more once this many wait, and its keys settle by time alone.
const settleMost = 64

// asked is a key waiting for the terminal's answer, and the screen on top
// when it was asked.
type asked struct {
	tag    Tag
	screen Screen
}

// askSettle asks the terminal after the key msg names was taken. Answers
// come one each, in order, so the next answer is the oldest question's.
func (m *Model) askSettle(msg SettleMsg) tea.Cmd {
	if len(m.settling) >= settleMost {
		return nil
	}
	m.settling = append(m.settling, asked{tag: msg.Tag, screen: m.top()})
	return tea.Raw(ansi.RequestPrimaryDeviceAttributes)
}

// settled takes the terminal's answer to the oldest question and tells the
// screen that asked, if it is still on top and shown (hidesTop); an answer
// nobody waits for (a question of another program's) is dropped. No screen
// sees the answer itself.
func (m *Model) settled(uv.PrimaryDeviceAttributesEvent) tea.Cmd {
	if len(m.settling) == 0 {
		return nil
	}
	a := m.settling[0]
	m.settling = m.settling[1:]
	if a.screen != m.top() || m.hidesTop() {
		return nil
	}
	return m.updateTop(SettledMsg{Tag: a.tag})
}

// hidesTop: the too-small notice or the help covers the top screen, so a
// key waiting for its settling there (kit.KeyHold) would answer what is
// not shown; "?" opened the help between a pasted enter and its answer.
// Shown again, the screen holds its keys anew (ShownAgainMsg).
func (m *Model) hidesTop() bool { return m.tooSmall() || m.fullHelp }
