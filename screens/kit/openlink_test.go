package kit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/osguard"
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

// TestOpenLinkStillRunningNotSaidOpened: an opener still running at its
// bound (osguard.OpenerRunning) is said to have been handed the link, with
// the link, never "Opened … in the browser": nothing says one showed it.
func TestOpenLinkStillRunningNotSaidOpened(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 80, 24, screentest.ConsoleOpts{})
	link := "https://explorer.example/tx/0x" + strings.Repeat("ab", 32)
	c.App.OpenURL = func(string) error { return &osguard.OpenerRunning{Name: "xdg-open", Wait: osguard.OpenWait} }
	m := screentest.FindMsg[tui.InfoMsg](t, screentest.RunCmdSync(t, kit.OpenLink(c.App, link)))
	if !strings.HasPrefix(m.Text, "Handed "+link+" to xdg-open, still running after 5s") || strings.Contains(m.Text, "Opened") {
		t.Errorf("an opener still running at its bound: %q", m.Text)
	}
}
