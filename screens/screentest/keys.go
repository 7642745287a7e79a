package screentest

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

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

// Press hands s the key named k (see Key), typed: an answer key's
// settling (tui.Settle) is answered before any other key comes, as a
// terminal answers after a key a person typed, and the key acts on that
// answer (kit.KeyHold). The command returned is what it did (the
// settling's timer is moot once it is answered).
func Press(s tui.Screen, k string) (tui.Screen, tea.Cmd) {
	s, cmd := s.Update(Key(k))
	if !slices.Contains([]string{"enter", "y", "Y", "n"}, k) {
		return s, cmd
	}
	if tag, _, ok := Settling(cmd); ok {
		return s.Update(tui.SettledMsg{Tag: tag})
	}
	return s, cmd
}

// PressTimed is Press where the app's timers are recorded (RecordTimers):
// the bound on the settling's wait, moot once answered, is taken off
// timers, which keep what the key set.
func PressTimed(s tui.Screen, k string, timers *[]Timer) (tui.Screen, tea.Cmd) {
	s, cmd := Press(s, k)
	*timers = slices.DeleteFunc(*timers, func(t Timer) bool {
		_, bound := t.Msg.(tui.SettledMsg)
		return bound
	})
	return s, cmd
}

// Answer is what a terminal sends once it read the question a key's
// settling asks, given the message that asks it (a tui.SettleMsg for the
// root): its Primary Device Attributes, after every key it sent before;
// nil for any other message.
func Answer(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tui.SettleMsg); !ok {
		return nil
	}
	return func() tea.Msg { return uv.PrimaryDeviceAttributesEvent{1, 2} }
}

// settleCode is the code of every key's settling (tui.Settle).
var settleCode = reflect.ValueOf(tui.Settle(0)).Pointer()

// Settling reports whether cmd is a key's settling and no more
// (tui.Settle), its tag, and what runs beside it (its timer): known by its
// code, it is run only then, and runs nothing.
func Settling(cmd tea.Cmd) (tag tui.Tag, also tea.Cmd, ok bool) {
	if cmd == nil || reflect.ValueOf(cmd).Pointer() != settleCode {
		return 0, nil, false
	}
	switch m := cmd().(type) {
	case tui.SettleMsg:
		return m.Tag, nil, true
	case tea.BatchMsg:
		tag, _, _ := Settling(m[0])
		return tag, m[1], true
	}
	return 0, nil, false
}

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
	"ctrl+v":    {Code: 'v', Mod: tea.ModCtrl},
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
			return tui.SettledMsg{Tag: s.Tag}
		}
	}
	t.Fatal("the key asks the terminal nothing: it settles no way")
	return tui.SettledMsg{}
}
