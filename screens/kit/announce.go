package kit

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// Announce tells the user that a followed withdrawal ended, beyond the
// screen: the terminal bell when the config's bell is on, and a desktop
// notification when its notify is on, as OSC 9 (iTerm2, kitty, WezTerm,
// Windows Terminal) and OSC 777 (foot, and terminals built on VTE). Inside
// tmux the notification is wrapped for passthrough, as the clipboard's is.
// The text is cleaned to one line without ';', which OSC 777 would read as
// a separator.
func Announce(app *App, title, body string) tea.Cmd {
	var out strings.Builder
	if app.Bell {
		out.WriteString("\a")
	}
	if app.Notify {
		title = strings.ReplaceAll(safetext.Line(title, 80), ";", ",")
		body = strings.ReplaceAll(safetext.Line(body, 200), ";", ",")
		inTmux := app.Getenv != nil && app.Getenv("TMUX") != ""
		out.WriteString(osc(inTmux, "9;"+title+": "+body))
		out.WriteString(osc(inTmux, "777;notify;"+title+";"+body))
	}
	if out.Len() == 0 {
		return nil
	}
	return tea.Raw(out.String())
}

// osc is one operating system command, terminated by BEL, wrapped in tmux's
// passthrough (every ESC doubled) when inTmux.
func osc(inTmux bool, body string) string {
	seq := "\x1b]" + body + "\a"
	if !inTmux {
		return seq
	}
	return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
}
