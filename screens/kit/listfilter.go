package kit

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"svcwallet/tui"
)

var FilterKeys = struct{ Start, Done key.Binding }{
	Start: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
	Done:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done filtering")),
}

// ListFilter narrows a list to the rows that contain what is typed after /,
// in any case. While it is typed, the keys are text (the screen reports
// Inputting); enter ends the typing and keeps the filter; / edits it again
// and an empty filter shows everything.
type ListFilter struct {
	input  Input
	Typing bool
}

func NewListFilter(c *tui.Common) ListFilter {
	in := NewInput(c, "type to filter", false)
	in.Prompt = "/ "
	in.SetWidth(24)
	return ListFilter{input: in}
}

// Start begins typing the filter.
func (f *ListFilter) Start() tea.Cmd {
	f.Typing = true
	return f.input.Focus()
}

// Update takes a key while the filter is typed: enter ends the typing,
// anything else is text.
func (f *ListFilter) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if cmd, ok := f.Bindings().Handle(k); ok {
			return cmd
		}
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	return cmd
}

// Bindings while the filter is typed: only enter, which keeps it.
func (f *ListFilter) Bindings() Bindings {
	return Bindings{{Key: FilterKeys.Done, On: true, Do: func() tea.Cmd {
		f.Typing = false
		f.input.Blur()
		return nil
	}}}
}

// Match reports whether any of fields contains the filter.
func (f ListFilter) Match(fields ...string) bool {
	q := strings.ToLower(f.Value())
	if q == "" {
		return true
	}
	for _, s := range fields {
		if strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

// Shown reports whether the filter is worth drawing: typed or in effect.
func (f ListFilter) Shown() bool { return f.Typing || f.Value() != "" }

// Value is the filter as typed, without the spaces around it.
func (f ListFilter) Value() string { return strings.TrimSpace(f.input.Value()) }

func (f ListFilter) View() string { return f.input.View() }
