package kit

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/tui"
)

const testKey = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

// TestInputKeyGuard: a field drops a pasted key even when its CharLimit
// would keep only part of it, and says so in words that repeat none of it;
// 63 hex digits are no key and stay; a field without the focus is left as
// it is; a passphrase field takes 64 hex digits, a sound passphrase.
func TestInputKeyGuard(t *testing.T) {
	c := tui.NewCommon(true, nil)
	paste := func(in Input, text string) (Input, []tea.Msg) {
		in.Focus()
		in, cmd := in.Update(tea.PasteMsg{Content: text})
		var msgs []tea.Msg
		if cmd != nil {
			msgs = append(msgs, cmd())
		}
		return in, msgs
	}

	short := NewInput(c, "", false)
	short.CharLimit = 20
	in, msgs := paste(short, testKey)
	if in.Value() != "" || len(msgs) != 1 {
		t.Fatalf("a key pasted into a 20-character field: %d characters kept, %d messages", len(in.Value()), len(msgs))
	}
	if m, ok := msgs[0].(tui.ErrorMsg); !ok || m.Err != KeyCleared || strings.Contains(m.Err.Error(), testKey[:9]) {
		t.Errorf("the message is not KeyCleared (%T)", msgs[0])
	}

	if in, _ := paste(NewInput(c, "", false), testKey[:63]); in.Value() != testKey[:63] {
		t.Errorf("63 hex digits were not kept (%d characters)", len(in.Value()))
	}
	blurred := NewInput(c, "", false)
	blurred.SetValue("0xabc")
	if in, cmd := blurred.Update(tea.PasteMsg{Content: testKey}); in.Value() != "0xabc" || cmd != nil {
		t.Errorf("a field without the focus changed on a paste (%d characters) or spoke", len(in.Value()))
	}
	if in, msgs := paste(NewPassphrase(c, ""), testKey); in.Value() != testKey || len(msgs) != 0 {
		t.Errorf("a passphrase of 64 hex digits was not kept (%d characters, %d messages)", len(in.Value()), len(msgs))
	}
}
