package screentest

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/tui"
)

// TypeInto types text into s one key at a time.
func TypeInto(s tui.Screen, text string) tui.Screen {
	for _, r := range text {
		s, _ = s.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return s
}

// Press hands s the key named k (see Key).
func Press(s tui.Screen, k string) (tui.Screen, tea.Cmd) { return s.Update(Key(k)) }

// PushedScreen returns the screen a command pushes, or nil.
func PushedScreen(cmd tea.Cmd) tui.Screen {
	if cmd == nil {
		return nil
	}
	switch m := cmd().(type) {
	case tui.PushMsg:
		return m.Screen
	case tea.BatchMsg:
		for _, c := range m {
			if s := PushedScreen(c); s != nil {
				return s
			}
		}
	}
	return nil
}

// Offers reports whether a key map shows a binding for key k.
func Offers(km interface{ ShortHelp() []key.Binding }, k string) bool {
	for _, b := range km.ShortHelp() {
		if b.Enabled() && slices.Contains(b.Keys(), k) {
			return true
		}
	}
	return false
}

// Key builds the key press for a key name as Bubble Tea reports it.
func Key(k string) tea.KeyPressMsg {
	if m, ok := namedKeys[k]; ok {
		return m
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// namedKeys are the keys Key knows by name.
var namedKeys = map[string]tea.KeyPressMsg{
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"tab":       {Code: tea.KeyTab},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"ctrl+d":    {Code: 'd', Mod: tea.ModCtrl},
	"ctrl+n":    {Code: 'n', Mod: tea.ModCtrl},
	"ctrl+r":    {Code: 'r', Mod: tea.ModCtrl},
	"space":     {Code: tea.KeySpace, Text: " "},
	"backspace": {Code: tea.KeyBackspace},
	"home":      {Code: tea.KeyHome},
	"end":       {Code: tea.KeyEnd},
	"pgup":      {Code: tea.KeyPgUp},
	"pgdown":    {Code: tea.KeyPgDown},
}

// OneLine is the plain view with wrapped lines joined, to find a sentence.
func OneLine(view string) string {
	var parts []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.Join(parts, " ")
}

// Offered reports whether s's footer lists a binding described desc.
func Offered(s tui.Screen, desc string) bool {
	for _, k := range s.KeyMap().ShortHelp() {
		if k.Help().Desc == desc {
			return true
		}
	}
	return false
}

// Acts reports whether cmd, a key's answer, does anything: nil, or only
// settling the key (tui.SettleMsg), does nothing. It runs cmd.
func Acts(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, settles := cmd().(tui.SettleMsg)
	return !settles
}

// Answered is the terminal's answer to the question cmd, a key's settling,
// asks (tui.SettleMsg), as the root hands it to the screen that asked.
func Answered(t testing.TB, cmd tea.Cmd) tui.SettledMsg {
	t.Helper()
	for _, m := range RunAll(cmd) {
		if s, ok := m.(tui.SettleMsg); ok {
			return tui.SettledMsg(s)
		}
	}
	t.Fatal("the key asks the terminal nothing: it settles no way")
	return tui.SettledMsg{}
}
