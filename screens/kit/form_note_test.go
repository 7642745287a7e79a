package kit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/tui"
)

// TestNoteBreaksPermissionsAfterAnAmpersand (seen in tmux at 60x20): the
// builder form's "sent as" note of every permission broke inside a name
// ("…ExternalTransfer&W", "ithdraw…"); it breaks after an & now.
func TestNoteBreaksPermissionsAfterAnAmpersand(t *testing.T) {
	f := &Form{c: tui.NewCommon(true, nil)}
	const perms = "Admin&InternalTransfer&ExternalTransfer&Withdraw&VaultInvestor&Trade"
	got := ansi.Strip(f.drawNote(HintNote("sent as "+perms), 40))
	lines := strings.Split(got, "\n")
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasSuffix(l, "&") || ansi.StringWidth(l) > 40 {
			t.Errorf("a line of the note breaks inside a name, or is too wide: %q", l)
		}
	}
	if strings.ReplaceAll(got, "\n", "") != "sent as "+perms {
		t.Errorf("the note's words changed:\n%s", got)
	}
}
