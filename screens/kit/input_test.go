package kit

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/theme"
	"github.com/svcwallet/svcwallet/tui"
)

const testKey = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

// TestInputKeyGuard: a field drops a pasted key even when its CharLimit
// would keep only part of it, and says so in words that repeat none of it;
// 61 hex digits are no key and stay; a field without the focus is left as
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

	if in, _ := paste(NewInput(c, "", false), testKey[:61]); in.Value() != testKey[:61] {
		t.Errorf("61 hex digits were not kept (%d characters)", len(in.Value()))
	}
	// A key written with 62 or 63 digits (no leading zeros), or in groups,
	// is cleared pasted, and typed once the next key is not a digit more.
	for _, key := range []string{"0x" + testKey[2:], groupsOf8(testKey)} {
		if in, msgs := paste(NewInput(c, "", false), key); in.Value() != "" || len(msgs) != 1 {
			t.Errorf("a key of %d characters pasted: %d kept, %d messages", len(key), len(in.Value()), len(msgs))
		}
		typed := NewInput(c, "", false)
		typed.Focus()
		said := false
		for _, r := range key + " " {
			var cmd tea.Cmd
			typed, cmd = typed.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			said = said || cmd != nil
		}
		if strings.TrimSpace(typed.Value()) != "" || !said {
			t.Errorf("a key of %d characters typed, then a space: %d characters kept", len(key), len(typed.Value()))
		}
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

// TestInputPrefill (issue 28 item 20): text typed or pasted over a
// pre-filled value replaces it (7d then 45d is 45d, not 7d45d), backspace
// empties it, a key that moves the cursor keeps it for editing, and a
// field that was typed in is edited as usual.
func TestInputPrefill(t *testing.T) {
	c := tui.NewCommon(true, nil)
	prefilled := func() Input {
		in := NewInput(c, "", false)
		in.Prefill("7d")
		in.Focus()
		return in
	}
	typed := func(in Input, msgs ...tea.Msg) string {
		for _, m := range msgs {
			in, _ = in.Update(m)
		}
		return in.Value()
	}
	key := func(s string) tea.Msg { return tea.KeyPressMsg{Code: rune(s[0]), Text: s} }
	for _, c := range []struct {
		name string
		msgs []tea.Msg
		want string
	}{
		{"typed", []tea.Msg{key("4"), key("5"), key("d")}, "45d"},
		{"pasted", []tea.Msg{tea.PasteMsg{Content: "12h"}}, "12h"},
		{"backspace", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyBackspace}}, ""},
		{"backspace then typed", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyBackspace}, key("3"), key("d")}, "3d"},
		{"edited", []tea.Msg{tea.KeyPressMsg{Code: tea.KeyLeft}, key("0")}, "70d"},
		{"typed on", []tea.Msg{key("1"), key("0"), tea.KeyPressMsg{Code: tea.KeyBackspace}, key("2")}, "12"},
	} {
		if got := typed(prefilled(), c.msgs...); got != c.want {
			t.Errorf("%s over a pre-filled 7d: %q, want %q", c.name, got, c.want)
		}
	}
	plain := NewInput(c, "", false)
	plain.SetValue("7d")
	plain.Focus()
	if got := typed(plain, key("4")); got != "7d4" {
		t.Errorf("a value set, not pre-filled, was replaced: %q", got)
	}
}

// TestInputCaretWithoutAttributes (issue 29 item 2): under TERM=dumb the
// focused field draws its cursor as ▏ before the character it is on, in
// the width the field takes anyway; a blurred field, and any field where
// reverse video shows, draws none.
func TestInputCaretWithoutAttributes(t *testing.T) {
	c := tui.NewCommon(true, nil)
	c.Profile = colorprofile.NoTTY
	in := NewInput(c, "amount", false)
	in.SetWidth(10)
	plain := func() string { return ansi.Strip(in.View()) }
	if got := plain(); strings.Contains(got, caret) {
		t.Errorf("a blurred field draws a caret: %q", got)
	}
	in.Focus()
	if got := plain(); !strings.HasPrefix(got, caret+"amount") {
		t.Errorf("the empty field's caret is not before its placeholder: %q", got)
	}
	in.SetValue("25")
	in.CursorEnd()
	width := ansi.StringWidth(in.Model.View())
	if got := plain(); !strings.HasPrefix(got, "25"+caret) || ansi.StringWidth(got) != width {
		t.Errorf("at the end: %q (%d cells, the field takes %d)", got, ansi.StringWidth(got), width)
	}
	in, _ = in.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	if got := plain(); !strings.HasPrefix(got, "2"+caret+"5") || ansi.StringWidth(got) != width {
		t.Errorf("on the 5: %q (%d cells, the field takes %d)", got, ansi.StringWidth(got), width)
	}
	c.Profile = colorprofile.ASCII
	if got := plain(); strings.Contains(got, caret) {
		t.Errorf("under NO_COLOR, where the reversed cursor shows, a caret too: %q", got)
	}
}

// TestInputFollowsTheTheme: a field made before the terminal said its
// background is light draws its text and cursor in the light theme's text
// colour once Common.Styles is rebuilt; it kept the dark theme's near-white
// text (typed text unseen on a white background, seen in tmux) and
// textinput's light grey cursor.
func TestInputFollowsTheTheme(t *testing.T) {
	c := tui.NewCommon(true, nil)
	in := NewInput(c, "", false)
	in.Focus()
	in.SetValue("abc")
	dark, light := "236;236;236", "31;31;31" // theme.New's text: #ECECEC, #1F1F1F
	if v := in.View(); !strings.Contains(v, dark) {
		t.Fatalf("the dark theme's text colour is not drawn: %q", v)
	}
	c.Styles = theme.New(false)
	v := in.View()
	if strings.Contains(v, dark) || strings.Count(v, light) < 2 {
		t.Errorf("after the light theme: want its text colour on the text and the cursor, no dark one: %q", v)
	}
}

// groupsOf8 is key in groups of 8 digits joined by colons.
func groupsOf8(key string) string {
	var groups []string
	for i := 0; i < len(key); i += 8 {
		groups = append(groups, key[i:i+8])
	}
	return strings.Join(groups, ":")
}

// TestInputWalletSecretGuard: a recovery phrase (numbered too) or an
// extended private key pasted into a field (dropped before a CharLimit
// keeps most of it), or typed into it, is cleared as a key is and never
// drawn, saying so without repeating it; a key in
// base64 is kept, the shape an API key may have, and so is a passphrase.
func TestInputWalletSecretGuard(t *testing.T) {
	c := tui.NewCommon(true, nil)
	const phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
	for _, given := range []string{phrase, "1. legal 2. winner 3. thank 4. year 5. wave 6. sausage 7. worth 8. useful 9. legal 10. winner 11. thank 12. yellow",
		"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"} {
		in := NewInput(c, "", false)
		in.Want("the API key")
		in.CharLimit = 60 // would keep most of it, short of a phrase
		in.Focus()
		in, cmd := in.Update(tea.PasteMsg{Content: given})
		if in.Value() != "" || cmd == nil {
			t.Fatalf("%.12q… pasted: %d characters kept", given, len(in.Value()))
		}
		if m, ok := cmd().(tui.ErrorMsg); !ok || m.Err != SecretCleared("the API key") || strings.Contains(m.Err.Error(), "sausage") {
			t.Errorf("%.12q… pasted: the message is not SecretCleared naming the field's want", given)
		}
	}
	typed := NewInput(c, "", false)
	typed.Want("the destination address")
	typed.Focus()
	var said []tui.ErrorMsg
	for _, r := range phrase {
		var cmd tea.Cmd
		typed, cmd = typed.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		said = append(said, errorsOf(cmd)...)
	}
	if strings.Contains(typed.Value(), "winner") || len(said) != 1 || said[0].Err != SecretCleared("the destination address") {
		t.Errorf("a phrase typed: %q kept, said %v", typed.Value(), said)
	}
	// The next step is the field's: what it wants, else its own words.
	if w := SecretCleared("the API key").Error(); !strings.HasSuffix(w, "svcwallet never asks for one: type the API key") {
		t.Errorf("SecretCleared says %q", w)
	}
	if w := SecretCleared("").Error(); !strings.HasSuffix(w, ": type what the field asks for") {
		t.Errorf("SecretCleared of a field wanting nothing said says %q", w)
	}
	apiKey := "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
	for _, in := range []Input{NewInput(c, "", true), NewPassphrase(c, "")} {
		in.Focus()
		if in, _ := in.Update(tea.PasteMsg{Content: apiKey}); in.Value() != apiKey {
			t.Errorf("a key in base64 was not kept")
		}
	}
	pass := NewPassphrase(c, "")
	pass.Focus()
	if pass, _ := pass.Update(tea.PasteMsg{Content: phrase}); pass.Value() != phrase {
		t.Errorf("a passphrase of words was not kept")
	}
}

// errorsOf are the errors cmd shows, in a batch too.
func errorsOf(cmd tea.Cmd) []tui.ErrorMsg {
	if cmd == nil {
		return nil
	}
	switch m := cmd().(type) {
	case tui.ErrorMsg:
		return []tui.ErrorMsg{m}
	case tea.BatchMsg:
		var all []tui.ErrorMsg
		for _, c := range m {
			all = append(all, errorsOf(c)...)
		}
		return all
	}
	return nil
}
