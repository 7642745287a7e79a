package kit

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestAnnounce (issue 21 item 15): the bell with bell on, OSC 9 and OSC 777
// with notify on (wrapped for tmux inside it), text cleaned to one line
// without the ';' OSC 777 separates with, and nothing with both off.
func TestAnnounce(t *testing.T) {
	raw := func(cmd tea.Cmd) string {
		if cmd == nil {
			return ""
		}
		return cmd().(tea.RawMsg).Msg.(string)
	}
	env := func(tmux string) func(string) string {
		return func(k string) string {
			if k == "TMUX" {
				return tmux
			}
			return ""
		}
	}
	app := func(bell, notify bool, tmux string) *App {
		return &App{Deps: Deps{Bell: bell, Notify: notify, Getenv: env(tmux)}}
	}
	title, body := "Withdrawal COMPLETED", "q-1: paid\x1b]52;c;evil\x07 out; done"
	for _, tc := range []struct {
		name string
		app  *App
		want string
	}{
		{"both off", app(false, false, ""), ""},
		{"bell", app(true, false, ""), "\a"},
		{"notify", app(false, true, ""), "\x1b]9;Withdrawal COMPLETED: q-1: paid out, done\a\x1b]777;notify;Withdrawal COMPLETED;q-1: paid out, done\a"},
		{"both in tmux", app(true, true, "/tmp/tmux-0/default,1,0"),
			"\a\x1bPtmux;\x1b\x1b]9;Withdrawal COMPLETED: q-1: paid out, done\a\x1b\\\x1bPtmux;\x1b\x1b]777;notify;Withdrawal COMPLETED;q-1: paid out, done\a\x1b\\"},
	} {
		if got := raw(Announce(tc.app, title, body)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
