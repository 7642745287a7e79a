package tui

import (
	"slices"

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
