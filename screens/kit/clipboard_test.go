package kit

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/tui"
)

// TestCopyInTmuxUnanswered: inside tmux, a copy whose set-clipboard
// question went unanswered (tmux not answering within its wait) says the
// copy was sent and that tmux did not say whether it let it out: it said
// "Copied" as if tmux had said so.
func TestCopyInTmuxUnanswered(t *testing.T) {
	app := &App{}
	app.Getenv = func(k string) string { return map[string]string{"TMUX": "/tmp/tmux-0/default,1,0"}[k] }
	app.TmuxClipboard = func() (string, error) { return "", errors.New("tmux did not answer within 2s") }
	var said []string
	for _, cmd := range CopyText(app, "q_1", "Copied quote id q_1")().(tea.BatchMsg) {
		if m, ok := cmd().(tui.InfoMsg); ok {
			said = append(said, m.Text)
		}
	}
	if len(said) != 1 || !strings.HasPrefix(said[0], "Copied quote id q_1, unless tmux kept it") || !strings.Contains(said[0], "it did not say whether it lets copies out") {
		t.Fatalf("said %q, want the copy said sent and tmux's answer unknown", said)
	}
}
