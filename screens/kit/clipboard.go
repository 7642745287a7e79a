package kit

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/aymanbagabas/go-osc52/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/tui"
)

// CopyText sets the system clipboard to text with OSC 52 and says done. Inside
// tmux the sequence is also sent wrapped for passthrough (it gets through
// with allow-passthrough on), and tmux's set-clipboard is read in the Cmd:
// when it is off or external, tmux keeps an application's OSC 52 from the
// terminal, so the toast says the copy stops there and how to let it through
// instead of claiming it worked.
func CopyText(app *App, text, done string) tea.Cmd {
	if app.Getenv == nil || app.Getenv("TMUX") == "" {
		return tea.Batch(tea.Raw(ansi.SetSystemClipboard(text)), tui.ShowInfo(done))
	}
	query := app.TmuxClipboard
	if query == nil {
		query = tmuxSetClipboard
	}
	say := func() tea.Msg {
		v, err := query()
		switch v = strings.TrimSpace(v); {
		case err != nil:
			// Unanswered (a server that never answers is given up): the
			// copy was sent, and whether tmux let it out is not known.
			return tui.InfoMsg{Text: done + ", unless tmux kept it (it did not say whether it lets copies out)"}
		case v == "off" || v == "external":
			return tui.ErrorMsg{Err: exchange.UserError{Text: "Not copied: tmux's set-clipboard is " + v +
				", so the copy stops at tmux. Run `tmux set -g set-clipboard on`, then copy again"}}
		}
		return tui.InfoMsg{Text: done}
	}
	return tea.Batch(tea.Raw(ansi.SetSystemClipboard(text)), tea.Raw(osc52.New(text).Tmux().String()), say)
}

// tmuxSetClipboard asks the tmux server for its set-clipboard option, for
// at most osguard.QuickWait: a server that never answers left a copy unsaid.
func tmuxSetClipboard() (string, error) {
	return osguard.TmuxGlobalOption(osguard.QuickWait, "set-clipboard")
}
