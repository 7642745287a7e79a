package tui

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// StandingMsg shows Text under the content area, above any toast, until a
// StandingOverMsg of the same Tag: a word true as long as what it says
// lasts (a wait on another process's lock), which no key, toast nor timer
// takes down.
type StandingMsg struct {
	Tag  Tag
	Text string
}

// StandingOverMsg takes down the StandingMsg of Tag: what it said is over.
type StandingOverMsg struct{ Tag Tag }

// stand puts up or takes down a standing word; taken down, the rows it
// took show again.
func (m *Model) stand(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case StandingMsg:
		if text := safetext.Line(msg.Text, 0); text != "" {
			m.standing = append(m.standing, toast{text: text, tag: msg.Tag})
		}
	case StandingOverMsg:
		n := len(m.standing)
		m.standing = slices.DeleteFunc(m.standing, func(s toast) bool { return s.tag == msg.Tag })
		if len(m.standing) < n {
			return m.resizeShown()
		}
	}
	return nil
}

// WarningMsg shows Text under the content area, above any toast, until a
// key pressed after it was drawn: keys are held from it for Shown from when
// it shows and for Again after each key that came in the hold (kit.KeyHold's
// rule), so a key typed ahead of it, a timer or a later toast never takes
// down a warning the user has not seen. The keys still act. Prefer
// ShowWarning.
type WarningMsg struct {
	Text string
	// Brief is Text in fewer words, drawn on a terminal too narrow for
	// Text in a toast's lines, so its end (where to read more) stays whole.
	Brief        string
	Shown, Again time.Duration
}

// ShowWarning returns a command that shows text (brief where it does not
// fit) as a WarningMsg.
func ShowWarning(text, brief string, shown, again time.Duration) tea.Cmd {
	return func() tea.Msg { return WarningMsg{Text: text, Brief: brief, Shown: shown, Again: again} }
}

// warn puts up a warning, replacing any earlier one.
func (m *Model) warn(msg WarningMsg) {
	if text := safetext.Line(msg.Text, 0); text != "" {
		m.warning = toast{text: text, brief: safetext.Line(msg.Brief, 0)}
		m.warningHeld, m.warningAgain = m.common.Now().Add(msg.Shown), msg.Again
	}
}

// warningKey takes a key down to the warning: one in its hold holds it
// again, the first after takes it down.
func (m *Model) warningKey() {
	now := m.common.Now()
	if !now.Before(m.warningHeld) {
		m.warning = toast{}
		return
	}
	if end := now.Add(m.warningAgain); end.After(m.warningHeld) {
		m.warningHeld = end
	}
}
