// Command bareframe is a bare Bubble Tea program: the anchor the
// console's first frame is measured against (BenchmarkFirstFrame). It
// draws one line in the alternate screen and ends on ctrl+c or q.
package main

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
)

type model struct{}

func (model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && (k.String() == "ctrl+c" || k.String() == "q") {
		return m, tea.Quit
	}
	return m, nil
}

func (model) View() tea.View {
	v := tea.NewView("Bare first frame")
	v.AltScreen = true
	return v
}

func main() {
	if _, err := tea.NewProgram(model{}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
