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
// (no opener, no display: an SSH session, a container) it says the link, so
// the key always does something useful.
func OpenLink(app *App, link string) tea.Cmd {
	open := app.OpenURL
	if open == nil {
		open = openInBrowser
	}
	return func() tea.Msg {
		if err := open(link); err != nil {
			return tui.InfoMsg{Text: "No browser can be opened here; the link is " + link}
		}
		return tui.InfoMsg{Text: "Opened " + link + " in the browser"}
	}
}

// openInBrowser hands a link to the desktop's opener: open on macOS,
// xdg-open where a graphical session runs.
func openInBrowser(link string) error {
	name := "xdg-open"
	switch {
	case runtime.GOOS == "darwin":
		name = "open"
	case os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "":
		return errors.New("no graphical session")
	}
	return osguard.Command(name, link).Run()
}
