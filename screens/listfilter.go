package screens

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"svcwallet/tui"
)

var filterKeys = struct{ Start, Done key.Binding }{
	Start: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
	Done:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done filtering")),
}

// listFilter narrows a list to the rows that contain what is typed after /,
// in any case. While it is typed, the keys are text (the screen reports
// Inputting); enter ends the typing and keeps the filter; / edits it again
// and an empty filter shows everything.
type listFilter struct {
	input  textinput.Model
	typing bool
}

func newListFilter(c *tui.Common) listFilter {
	in := newInput(c, "type to filter", false)
	in.Prompt = "/ "
	in.SetWidth(24)
	return listFilter{input: in}
}

// start begins typing the filter.
func (f *listFilter) start() tea.Cmd {
	f.typing = true
	return f.input.Focus()
}

// update takes a key while the filter is typed: enter ends the typing,
// anything else is text.
func (f *listFilter) update(k tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := f.bindings().handle(k); ok {
		return cmd
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(k)
	return cmd
}

// bindings while the filter is typed: only enter, which keeps it.
func (f *listFilter) bindings() bindings {
	return bindings{{key: filterKeys.Done, on: true, do: func() tea.Cmd {
		f.typing = false
		f.input.Blur()
		return nil
	}}}
}

// match reports whether any of fields contains the filter.
func (f listFilter) match(fields ...string) bool {
	q := strings.ToLower(strings.TrimSpace(f.input.Value()))
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

// shown reports whether the filter is worth drawing: typed or in effect.
func (f listFilter) shown() bool { return f.typing || strings.TrimSpace(f.input.Value()) != "" }

func (f listFilter) view() string { return f.input.View() }
