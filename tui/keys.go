package tui

import (
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// globalKeys are handled by the root before the top screen sees a key.
var globalKeys = struct {
	Help, Back, Quit, Interrupt key.Binding
}{
	Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
	Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
	Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
}

// PasteGuard is how long after a paste no key acts. A terminal's parser
// ends a paste at the first end marker it meets, so what a paste carries
// after one (ESC [ 201 ~, then tab 25 enter enter) arrives as key presses
// right behind it; a person takes longer to press a key after pasting.
// Each key it drops extends it, so no padding can outlast it.
const PasteGuard = 400 * time.Millisecond

// pastedKeys is the toast of keys dropped by PasteGuard.
var pastedKeys = fmt.Sprintf("Keys that came with a paste or within %s of it were ignored (a paste can carry keys): press again any you meant", PasteGuard)

// pastedKeysBrief is pastedKeys where a question is asked (Asking): in
// the footer's row, the question keeps every row (a toast's rows hid it at
// 60x20, and its return restarted the hold the person had waited out).
const pastedKeysBrief = "Keys with the paste were ignored: type again any you meant"

// handleKey takes a key once the paste guard and the too-small notice
// let it through: the quit question, the root's keys, then the top screen.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if m.confirmQuit {
		m.confirmQuit = false
		if s := k.String(); s == "y" || s == "Y" {
			return tea.Quit
		}
		return nil
	}
	// Any key dismisses the toast, a warning only once seen; the key
	// itself still counts.
	m.toast = toast{}
	m.warningKey()
	inputting := m.inputting()
	switch {
	case key.Matches(k, globalKeys.Interrupt),
		!inputting && key.Matches(k, globalKeys.Quit) && !m.screenOffers(globalKeys.Quit):
		return m.quit()
	case !inputting && key.Matches(k, globalKeys.Help):
		// ? opens the help, turns its pages, and closes it after the last.
		switch {
		case !m.fullHelp:
			m.fullHelp, m.helpPage = true, 0
		case m.helpPage+1 < len(m.footer().pages):
			m.helpPage++
		default:
			m.fullHelp = false
		}
		return nil
	case key.Matches(k, globalKeys.Back) && m.fullHelp:
		m.fullHelp = false
		if m.screenOffers(globalKeys.Back) {
			// The help lists the screen's esc (cancel a wait, clear a
			// filter), not "close help": esc does what it lists.
			return m.updateTop(k)
		}
		return nil
	case key.Matches(k, globalKeys.Back) && m.canGoBack():
		return m.pop()
	}
	return m.updateTop(k)
}

// tooSmall: the terminal is below the minimum size and shows only a
// notice (DESIGN.md §5).
func (m *Model) tooSmall() bool { return m.width < MinWidth || m.height < MinHeight }

// smallKey handles a key while the terminal is too small: nothing on it
// shows what a key would do, so only quitting acts, and the answer to the
// question quitting may ask (the notice shows it).
func (m *Model) smallKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.confirmQuit:
		return m.handleKey(k)
	case key.Matches(k, globalKeys.Interrupt, globalKeys.Quit):
		return m.quit()
	}
	return nil
}

// dropPastedKey drops a key that came with a paste, or too soon after it
// to be the user's, and says so once: a notice, not an error, as the keys
// were ignored on purpose.
func (m *Model) dropPastedKey() tea.Cmd {
	m.pasteQuiet = m.common.Now().Add(PasteGuard)
	if m.toast.text == pastedKeys || m.toast.text == pastedKeysBrief {
		return nil
	}
	if a, ok := m.top().(Asking); ok && a.Asks() {
		return m.showToastOf(toast{text: pastedKeysBrief, inFooter: true, on: m.top()})
	}
	return m.showToast(false, pastedKeys)
}

// quit leaves at once unless money is moving, in which case it asks.
func (m *Model) quit() tea.Cmd {
	if m.busy() == "" {
		return tea.Quit
	}
	m.confirmQuit = true
	m.fullHelp = false
	return nil
}

// canGoBack: Esc pops unless this is the first screen, the top screen is
// waiting for a money-moving reply it would otherwise never receive, holds
// its keys (Holding), or offers Esc itself (a list's filter clears first).
func (m *Model) canGoBack() bool {
	if len(m.stack) < 2 || m.screenOffers(globalKeys.Back) {
		return false
	}
	if h, ok := m.top().(Holding); ok && h.HoldsKeys() {
		return false
	}
	b, ok := m.top().(Busy)
	return !ok || b.Busy() == ""
}

// holdKeys asks the top screen's KeyMap for the frame View draws.
func (m *Model) holdKeys() {
	km := m.top().KeyMap()
	m.frameKeys = &km
}

// topKeys is the top screen's KeyMap, the frame's while View draws one.
func (m *Model) topKeys() help.KeyMap {
	if m.frameKeys != nil {
		return *m.frameKeys
	}
	return m.top().KeyMap()
}

// screenOffers reports whether the top screen's key map, the list its
// footer and full help are drawn from, offers a key of g: then the key is
// the screen's, and the footer names the screen's meaning, not the root's.
func (m *Model) screenOffers(g key.Binding) bool {
	km := m.topKeys()
	if km == nil {
		return false
	}
	for _, col := range km.FullHelp() {
		for _, b := range col {
			if b.Enabled() && slices.ContainsFunc(g.Keys(), func(k string) bool { return slices.Contains(b.Keys(), k) }) {
				return true
			}
		}
	}
	return false
}

// busy says what is in flight on the topmost busy screen, or "".
func (m *Model) busy() string {
	for _, s := range slices.Backward(m.stack) {
		if b, ok := s.(Busy); ok && b.Busy() != "" {
			return b.Busy()
		}
	}
	return ""
}

func (m *Model) inputting() bool {
	in, ok := m.top().(Inputting)
	return ok && in.Inputting()
}
