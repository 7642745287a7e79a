package status

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/tui"
)

// The next id, typed or pasted on the status screen of a row the watch
// board opened. Support staff read one withdrawal and type the next quote
// id: a quote id starts with q (q-…), which quits anywhere else, so here q
// and a digit start the id, and a paste is an id too. Enter takes it back
// to the board, which adds it as its field does (and finds a payout hash
// or transfer id there).

var lookupKeys = struct{ Start, Look, Cancel key.Binding }{
	Start:  key.NewBinding(key.WithKeys("q", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("q-…", "type a quote id")),
	Look:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "add it to the board")),
	Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
}

// lookup is the field the next id is typed in.
type lookup struct {
	field kit.Input
	on    bool // the field has the keys
	board bool // reached from the watch board: the only status screen with the field
}

// lookupBindings are the field's keys while it has them.
func (s *statusScreen) lookupBindings() kit.Bindings {
	return kit.Bindings{
		{Key: lookupKeys.Look, On: true, Do: func() tea.Cmd { return s.lookUp(s.look.field.Value()) }},
		{Key: lookupKeys.Cancel, On: true, Do: func() tea.Cmd {
			s.look.on = false
			s.look.field.SetValue("")
			s.look.field.Blur()
			return nil
		}},
	}
}

// Inputting: while the next id is typed, letters are text.
func (s *statusScreen) Inputting() bool { return s.look.on }

// lookupUpdate takes a paste, or a key that starts or types the next id;
// ok false leaves msg to the screen.
func (s *statusScreen) lookupUpdate(msg tea.Msg) (tea.Cmd, bool) {
	if !s.look.board {
		return nil, false
	}
	switch msg := msg.(type) {
	case tea.PasteMsg:
		return s.lookUp(s.look.field.Value() + msg.Content), true
	case tea.KeyPressMsg:
		if s.look.on {
			guard := s.look.field.Guard(msg) // the field's rule before the screen's keys
			if cmd, ok := s.lookupBindings().Handle(msg); ok {
				return tea.Batch(guard, cmd), true
			}
			var cmd tea.Cmd
			s.look.field, cmd = s.look.field.Update(msg)
			return tea.Batch(guard, cmd), true
		}
		if key.Matches(msg, lookupKeys.Start) {
			s.look.on = true
			s.look.field.Focus()
			s.look.field.SetValue(msg.Text)
			s.look.field.CursorEnd()
			return nil, true
		}
	}
	return nil, false
}

// lookUp takes the ids in text back to the board, which adds them as its
// field does.
func (s *statusScreen) lookUp(text string) tea.Cmd {
	s.look.on = false
	s.look.field.SetValue("")
	s.look.field.Blur()
	return tea.Sequence(tui.Pop(s), func() tea.Msg { return kit.IDsTypedMsg{Text: text} })
}

// lookupView is the field while the next id is typed, "" otherwise.
func (s *statusScreen) lookupView() string {
	if !s.look.on {
		return ""
	}
	c := s.app.Common
	return "\n" + layout.Focus(c, true) + layout.Field(c, "Next id", statusLabelWidth-2, s.look.field.View()) + "\n"
}
