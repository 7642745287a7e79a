package kit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
)

// TestOpenLinkFailureKeepsTheLink: where no browser opened, the link is
// said whole at 60x20 however long the opener's failure (osguard.OpenLink
// keeps 200 characters of it): a toast shows three lines, and the link is
// what the key is for.
func TestOpenLinkFailureKeepsTheLink(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 60, 20, screentest.ConsoleOpts{})
	link := "https://explorer.example/tx/0x" + strings.Repeat("ab", 32)
	c.App.OpenURL = func(string) error {
		return errors.New("xdg-open failed (exit status 3): " + strings.Repeat("Gtk-Message: failed to load module ", 6))
	}
	c.Send(screentest.FindMsg[tui.InfoMsg](t, screentest.RunCmdSync(t, kit.OpenLink(c.App, link))))
	if shown := strings.Join(strings.Fields(ansi.Strip(c.View())), ""); !strings.Contains(shown, link) {
		t.Errorf("the link is not said whole:\n%s", c.Plain())
	}
}
