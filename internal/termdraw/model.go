package termdraw

import tea "charm.land/bubbletea/v2"

// Model runs a model under Bubble Tea and hands the drawer each view it
// asks for: Bubble Tea asks after every Update.
type Model struct {
	Inner  tea.Model
	Drawer *Drawer
}

// Init is the inner model's.
func (m Model) Init() tea.Cmd { return m.Inner.Init() }

// Update is the inner model's.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.Inner, cmd = m.Inner.Update(msg)
	return m, cmd
}

// View is the inner model's, handed to the drawer.
func (m Model) View() tea.View {
	v := m.Inner.View()
	m.Drawer.Frame(v)
	return v
}
