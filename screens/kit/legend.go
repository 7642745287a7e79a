package kit

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// WithLegend is a screen's help: its keys, and in the full help (?) a
// column that says what the marks on its rows mean. A legend line names
// no key anyone presses.
func WithLegend(keys help.KeyMap, legend [][2]string) help.KeyMap {
	lines := make([]key.Binding, len(legend))
	for i, l := range legend {
		lines[i] = key.NewBinding(key.WithKeys("legend"), key.WithHelp(l[0], l[1]))
	}
	return legendHelp{keys: keys, legend: lines}
}

type legendHelp struct {
	keys   help.KeyMap
	legend []key.Binding
}

func (h legendHelp) ShortHelp() []key.Binding  { return h.keys.ShortHelp() }
func (h legendHelp) FullHelp() [][]key.Binding { return append(h.keys.FullHelp(), h.legend) }
