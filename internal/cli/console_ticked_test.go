package cli

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestTickedConsoleTakesOnlyTheMeasuredSize: where Bubble Tea draws
// (Windows, a terminal the drawer cannot take) a size report in the input,
// a paste's ESC[8;90;250t after its forged end mark, laid the review out
// for 250x90 on a 100x32 terminal, its footer and the bridge's trust note
// cut off. Every size the model is told is the one measured as it comes.
func TestTickedConsoleTakesOnlyTheMeasuredSize(t *testing.T) {
	measured := func() (int, int, error) { return 100, 32, nil }
	filter := tickedFilter(measured, nil)
	if got := filter(nil, tea.WindowSizeMsg{Width: 250, Height: 90}); got != (tea.WindowSizeMsg{Width: 100, Height: 32}) {
		t.Errorf("a size report in the input reached the model as %v, not the measured 100x32", got)
	}
	if got := filter(nil, tea.WindowSizeMsg{Width: 100, Height: 32}); got != (tea.WindowSizeMsg{Width: 100, Height: 32}) {
		t.Errorf("the measured size reached the model as %v", got)
	}
	unmeasured := tickedFilter(func() (int, int, error) { return 0, 0, errors.New("no terminal") }, nil)
	if got := unmeasured(nil, tea.WindowSizeMsg{Width: 250, Height: 90}); got != nil {
		t.Errorf("a terminal that cannot be measured was told %v", got)
	}
	key := tea.KeyPressMsg{Code: 'y', Text: "y"}
	if got := filter(nil, key); got != key {
		t.Errorf("a key was filtered to %v", got)
	}
	if _, _, err := outputSize(nil)(); err == nil {
		t.Error("an output that is no file was measured")
	}
}
