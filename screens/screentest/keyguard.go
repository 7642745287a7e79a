package screentest

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// KeyHex is the private key the key-guard tests type and paste: the sandbox's
// published development key, without its 0x.
var KeyHex = strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")

// KeyCleared is the part of kit.KeyCleared the tests look for on screen.
const KeyCleared = "it was cleared and not used"

// KeyField is one text field RequireKeyCleared checks: Focus gives it the
// keys (nil when it has them), Value reads what it holds.
type KeyField struct {
	Name  string
	Focus func() tea.Cmd
	Value func() string
	// Hashes: the field takes a payout hash (0x and 64 hex digits)
	// standing alone (kit.Input.TakeHashes): typed or pasted as one, the
	// key stays; every other way is cleared.
	Hashes bool
}

// RequireKeyCleared puts first under the root at 120x40 and, in each field,
// types and pastes a private key the ways users bring one: bare, with 0x,
// inside other text, wrapped over two lines. After each the field must be empty, the console must
// say the key was cleared, and the frame must hold no 9 hex digits of the
// key in a row.
func RequireKeyCleared(t *testing.T, app *kit.App, first tui.Screen, fields ...KeyField) {
	t.Helper()
	root := tui.New(first, tui.Options{Theme: "dark", Common: app.Common})
	for _, m := range RunAll(root.Init()) {
		root.Update(m)
	}
	root.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	// send hands msg to the root and, of what its commands make, the toasts
	// back: typing starts no timer here, so running them waits for nothing.
	send := func(msg tea.Msg) {
		_, cmd := root.Update(msg)
		for _, m := range RunAll(cmd) {
			switch m.(type) {
			case tui.ErrorMsg, tui.InfoMsg:
				root.Update(m)
			}
		}
	}
	type way struct{ how, text string }
	var ways []way
	for _, how := range []string{"typed", "pasted"} {
		ways = append(ways, way{how + " bare", KeyHex}, way{how + " with 0x", "0x" + KeyHex})
	}
	// Typed text after the key goes into the emptied field; pasted, it goes
	// with the key.
	ways = append(ways, way{"typed after text", "my key: 0x" + KeyHex}, way{"pasted inside text", "my key is 0x" + KeyHex + " (do not share)"})
	// A key wrapped over two lines, or split by a space, is still a key.
	ways = append(ways, way{"pasted over two lines", "0x" + KeyHex[:32] + "\n" + KeyHex[32:] + "\n"}, way{"typed in two halves", KeyHex[:32] + " " + KeyHex[32:]})
	// Typed short of 64 digits, the field keeps it while more may come; a
	// key the screen takes (a submit's enter) comes after the field's rule,
	// so the screen never acts on what the field clears.
	ways = append(ways, way{"typed short, then enter", "0x" + KeyHex[:62]})
	for _, f := range fields {
		for _, w := range ways {
			if f.Focus != nil {
				RunAll(f.Focus()) // again: an enter may have ended the typing
			}
			// A key dismisses the last toast, and shows the field takes keys
			// (replacing a pre-filled value, kit.Input.Prefill).
			before := f.Value()
			send(tea.KeyPressMsg{Code: 'z', Text: "z"})
			if v := f.Value(); v != before+"z" && v != "z" {
				t.Fatalf("%s: the field does not take typed keys (it holds %d characters, not the one typed)", f.Name, len(f.Value()))
			}
			if strings.Contains(OneLine(root.View().Content), KeyCleared) {
				t.Fatalf("%s: the last message stays after a key", f.Name)
			}
			if f.Hashes {
				send(tea.KeyPressMsg{Code: tea.KeyBackspace}) // a hash stands alone
			}
			if strings.HasPrefix(w.how, "typed") {
				for _, r := range w.text {
					send(tea.KeyPressMsg{Code: r, Text: string(r)})
				}
				if strings.HasSuffix(w.how, "then enter") {
					send(tea.KeyPressMsg{Code: tea.KeyEnter})
				}
			} else {
				send(tea.PasteMsg{Content: w.text})
			}
			frame := ansi.Strip(root.View().Content)
			if f.Hashes && strings.Contains(w.text, "0x"+KeyHex) && !strings.Contains(w.text, "\n") {
				// 0x and 64 hex digits standing alone: a payout hash to match.
				if !strings.Contains(f.Value(), "0x"+KeyHex) {
					t.Errorf("%s, a payout hash %s: the field holds %d characters, not the hash", f.Name, w.how, len(f.Value()))
				}
				for range f.Value() {
					send(tea.KeyPressMsg{Code: tea.KeyBackspace})
				}
				continue
			}
			switch {
			case f.Value() != "":
				t.Errorf("%s, key %s: the field still holds %d characters", f.Name, w.how, len(f.Value()))
			case !strings.Contains(OneLine(frame), KeyCleared):
				t.Errorf("%s, key %s: the console does not say the key was cleared", f.Name, w.how)
			}
			if ShowsKeyPiece(frame) {
				t.Errorf("%s, key %s: the frame shows 9 or more hex digits of the key in a row", f.Name, w.how)
			}
		}
	}
}

// ShowsKeyPiece reports whether s holds 9 characters of KeyHex in a row, in
// any case.
func ShowsKeyPiece(s string) bool {
	s = strings.ToLower(s)
	for i := 0; i+9 <= len(KeyHex); i++ {
		if strings.Contains(s, KeyHex[i:i+9]) {
			return true
		}
	}
	return false
}

// Phrase is the recovery phrase the guard tests paste (BIP-39's test
// vector, of no wallet).
const Phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"

// RequireSecretClearedSays pastes Phrase into in, focused, and requires
// the error it shows to be kit.SecretCleared naming wants: what the field
// asks for is the next step.
func RequireSecretClearedSays(t *testing.T, name string, in *kit.Input, wants string) {
	t.Helper()
	in.Focus()
	got, cmd := in.Update(tea.PasteMsg{Content: Phrase})
	*in = got
	if cmd == nil {
		t.Fatalf("%s: a recovery phrase pasted said nothing", name)
	}
	if m, ok := cmd().(tui.ErrorMsg); !ok || m.Err != kit.SecretCleared(wants) || in.Value() != "" {
		t.Errorf("%s: a recovery phrase pasted said %v, kept %q; want kit.SecretCleared(%q)", name, m.Err, in.Value(), wants)
	}
}
