package kit

import (
	"errors"
	"os"
	"runtime"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/tui"
)

// OpenLink opens a link in the browser, in a Cmd; where none can be opened
// (no opener, no display: an SSH session, a container) or the opener
// failed, it says why and the link, so the key always does something useful.
func OpenLink(app *App, link string) tea.Cmd {
	open := app.OpenURL
	if open == nil {
		open = openInBrowser
	}
	return func() tea.Msg {
		var running *osguard.OpenerRunning
		switch err := open(link); {
		case errors.As(err, &running):
			// Handed over is all that is known: no browser may show it.
			return tui.InfoMsg{Text: "Handed " + link + " to " + running.Name + ", still running after " + running.Wait.String() + "; if no browser shows it, copy the link from here"}
		case err != nil:
			// The link first: a toast shows three lines, and the opener's
			// words may fill them.
			return tui.InfoMsg{Text: "No browser opened; the link is " + link + " (" + err.Error() + ")"}
		}
		return tui.InfoMsg{Text: "Opened " + link + " in the browser"}
	}
}

// openInBrowser hands a link to the desktop's opener (osguard.Opener),
// bounded and its output kept from the screen (osguard.OpenLink).
func openInBrowser(link string) error {
	name := osguard.Opener(runtime.GOOS, os.Getenv)
	if name == "" {
		return errors.New("no graphical session")
	}
	return osguard.OpenLink(osguard.OpenWait, name, link)
}
