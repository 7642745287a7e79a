package screens

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestTooSmallKeysDoNothing (issue 29 item 4): at 40x16 the console shows
// only the too-small notice, so the login's ctrl+d (fill in the demo),
// enter (log in), and home's d (deposits) do nothing; back at 120x40 the
// login is as it was, its API key field still empty. The same on home.
func TestTooSmallKeysDoNothing(t *testing.T) {
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
	check := func(where string, keys ...string) {
		t.Helper()
		before := c.View()
		c.Send(tea.WindowSizeMsg{Width: 40, Height: 16})
		small := c.Plain()
		c.Press(keys...)
		c.TypeText(sandbox.DemoAPIKey)
		if got := c.Plain(); got != small {
			t.Fatalf("%s: the frame changed at 40x16:\n%s", where, got)
		}
		c.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
		if after := c.View(); after != before {
			t.Fatalf("%s: keys acted at 40x16; before:\n%s\nafter:\n%s", where, ansi.Strip(before), ansi.Strip(after))
		}
	}
	check("login", "ctrl+d", "enter", "d", "tab", "right")
	c.LoginAPIKey(sandbox.DemoAPIKey)
	check("home", "d", "enter", "w", "L", "esc")
}
