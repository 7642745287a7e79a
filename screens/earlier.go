package screens

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/tui"
)

// earlierNotice stands in front of the console's first screen (the login,
// or Home for a kept session) while a journal an earlier svcwallet wrote is
// left beside the one in use (kit.Deps.EarlierJournals): the repeat guard
// never sees its withdrawals, and an earlier console still open may send
// more, so it is said before any withdrawal, where standard error, under
// the full screen, is seen only after quitting.
type earlierNotice struct {
	app   *kit.App
	first tui.Screen
	w, h  int
	// hold: enter hides the notice only once it has stood a moment, so an
	// enter typed ahead of it never takes it down unread.
	hold kit.KeyHold
}

var hideNotice = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "hide notice"))

// withEarlierNotice is first, behind the notice when journals were left
// beside the one in use.
func withEarlierNotice(app *kit.App, first tui.Screen) tui.Screen {
	if len(app.EarlierJournals) == 0 {
		return first
	}
	return &earlierNotice{app: app, first: first}
}

func (n *earlierNotice) Init() tea.Cmd {
	n.hold.Tell(n.app.Common.RepeatsTold)
	return n.hold.StartOn(n.app.Common.Now(), n.app.Timer)
}

// Title says what is on screen: the notice, not the screen behind it.
func (n *earlierNotice) Title() string { return "Earlier journal found" }

func (n *earlierNotice) SetSize(w, h int) { n.w, n.h = w, h }

func (n *earlierNotice) KeyMap() help.KeyMap { return n.bindings().KeyMap() }

func (n *earlierNotice) bindings() kit.Bindings { return n.keys(n.hold.Holds(n.app.Common.Now())) }

// keys are bindings while held or not: a key the hold dropped is said as
// acting later only if they take it once it is over (kit.KeyHold.DroppedSaid).
func (n *earlierNotice) keys(held bool) kit.Bindings {
	return kit.Bindings{{Key: hideNotice, On: !held, Do: func() tea.Cmd { return tui.Reset(n.first) }}}
}

// Update takes enter alone; a paste, or text typed, meant for the screen
// behind is dropped, never handed on.
func (n *earlierNotice) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	msg, settle := n.hold.Update(msg, n.app.Common.Now(), n.app.Timer)
	if msg == nil {
		return n, settle
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		cmd, _ := n.bindings().Handle(k)
		return n, n.hold.Then(settle, cmd)
	}
	return n, nil
}

// heldLine says, under the notice while enter is held, when it acts, and
// that a key typed meanwhile was not taken; "" once enter acts.
func (n *earlierNotice) heldLine(w int) string {
	now := n.app.Common.Now()
	if !n.hold.Holds(now) {
		return ""
	}
	said := safetext.Capitalized(n.hold.KeysEnabled(now)) + "."
	// esc goes back from nothing: the notice stands first.
	if k := n.hold.DroppedSaid(now, n.keys(false), false); k != "" {
		said = k + n.hold.KeysEnabled(now) + "."
	}
	return "\n\n" + n.app.Common.Styles.Muted.Render(layout.WrapTo(said, w))
}

// View names each journal left beside escaped (safetext.Shown), what it
// means and what to do; on a short terminal the words are fewer, the
// paths always whole (broken where the width ends).
func (n *earlierNotice) View() string {
	c := n.app.Common
	k := layout.InksFor(c)
	w := max(n.w, 1)
	wrap := func(s string) string { return layout.WrapTo(s, w) + "\n" }
	// A path is broken where the width ends, never at a space, which a
	// line's end would hide (macOS's Application Support).
	path := func(p string) string {
		return k.Value.On(strings.ReplaceAll(ansi.Hardwrap(safetext.Shown(p), max(w-2, 8), true), "\n", "\n  ")) + "\n"
	}
	var beside []osguard.Moved
	render := func(level int) string {
		var b strings.Builder
		b.WriteString(c.Styles.Warning.Render(layout.WrapTo("A withdrawal journal an earlier svcwallet wrote is left at its earlier place:", w)) + "\n")
		for _, m := range n.app.EarlierJournals {
			b.WriteString("  " + path(m.From))
			if nm := m.NotMoved(); nm != nil {
				b.WriteString(wrap("It could not be moved (" + nm.Why() + ") to:"))
				b.WriteString("  " + path(m.To))
			}
		}
		if level == 0 {
			b.WriteString("\n")
		}
		b.WriteString(wrap("The withdrawals in it are not seen by the check that a withdrawal is sent once: before making one of them again, look it up by its quote id (the watch board, or svcwallet status): the file is text, and a withdrawal's lines name it after \"quote_id\"."))
		if level == 0 {
			b.WriteString("\n")
		}
		if len(beside) < len(n.app.EarlierJournals) {
			// Nothing may be at its new place: moved elsewhere, it stays unseen.
			b.WriteString(wrap("Quit the earlier svcwallet if one is still open: it records and sends withdrawals there. The next run moves the file once nothing stops it."))
		}
		if len(beside) > 0 {
			b.WriteString(wrap("Quit the earlier svcwallet if one is still open: it records and sends withdrawals there. Then move that file elsewhere, never over the journal in use:"))
			for _, m := range beside {
				b.WriteString("  " + path(m.To))
			}
		}
		return strings.TrimSuffix(b.String(), "\n") + n.heldLine(w)
	}
	for _, m := range n.app.EarlierJournals {
		if m.NotMoved() == nil {
			beside = append(beside, m)
		}
	}
	out, _ := layout.Fitted(2, n.h, render)
	return layout.Clip(out, w)
}
