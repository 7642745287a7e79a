package screentest

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
)

// TestIsTimer: Bubble Tea's timers, and the App's, are known by their
// function, and nothing else is: a command taken for a timer would be left
// unrun by Feed and RunAll. Should tea.Tick ever be inlined this fails,
// rather than every console test silently waiting out its timers.
func TestIsTimer(t *testing.T) {
	msg := func() tea.Msg { return nil }
	tick := func(time.Time) tea.Msg { return nil }
	for name, cmd := range map[string]tea.Cmd{
		"tea.Tick":  tea.Tick(time.Second, tick),
		"tea.Every": tea.Every(time.Second, tick),
		"App.After": (&kit.App{}).After(time.Second, nil),
	} {
		if !IsTimer(cmd) {
			t.Errorf("%s is not known as a timer", name)
		}
	}
	for name, cmd := range map[string]tea.Cmd{
		"a plain command": msg,
		"tea.Batch":       tea.Batch(msg, msg),
		"tea.Sequence":    tea.Sequence(msg, msg),
		"nil":             nil,
	} {
		if IsTimer(cmd) {
			t.Errorf("%s is taken for a timer", name)
		}
	}
}
