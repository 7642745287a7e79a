package withdraw

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/tui"
)

// bridgeConfirmedMsg answers the confirmation: the record was replaced, or why not.
type bridgeConfirmedMsg struct{ err error }

// bridgeConfirmKeys: confirming takes a capital Y, never enter, so a key
// pressed out of habit on the review cannot accept a new bridge address.
var bridgeConfirmKey = key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y (shift+y)", "trust the new address"))

// bridgeConfirmScreen shows a changed bridge funding address next to the recorded
// one and replaces the record only on an explicit confirmation.
type bridgeConfirmScreen struct {
	app     *kit.App
	change  withdrawal.BridgeChangedError
	err     error
	working bool
	wd, h   int
	// hold: keys are held as on a review, so a Y typed with the c that
	// opened the screen trusts nothing.
	hold kit.KeyHold
}

// newBridgeConfirm asks to trust change.Seen in place of change.Expected.
func newBridgeConfirm(app *kit.App, change withdrawal.BridgeChangedError) *bridgeConfirmScreen {
	return &bridgeConfirmScreen{app: app, change: change}
}

func (b *bridgeConfirmScreen) Init() tea.Cmd {
	b.hold.Tell(b.app.Common.RepeatsTold)
	return b.hold.Start(b.app.Common.Now())
}

// held: the screen showed less than kit.ShownGuard ago, or a key came while held.
func (b *bridgeConfirmScreen) held() bool { return b.hold.Holds(b.app.Common.Now()) }

// HoldsKeys: esc is held with Y (tui.Holding).
func (b *bridgeConfirmScreen) HoldsKeys() bool { return b.held() }

// Asks: Y trusts the new address here (tui.Asking).
func (b *bridgeConfirmScreen) Asks() bool { return true }

func (b *bridgeConfirmScreen) Title() string { return "The bridge funding address changed" }

func (b *bridgeConfirmScreen) SetSize(w, h int) { b.wd, b.h = w, h }

func (b *bridgeConfirmScreen) KeyMap() help.KeyMap { return b.bindings().KeyMap() }

// bindings: Y records the new address, unless it is being recorded or
// keys are held.
func (b *bridgeConfirmScreen) bindings() kit.Bindings { return b.keys(b.held()) }

// keys are bindings while held or not: a key the hold dropped is said as
// acting later only if they take it once it is over (kit.KeyHold.DroppedSaid).
func (b *bridgeConfirmScreen) keys(held bool) kit.Bindings {
	return kit.Bindings{{Key: bridgeConfirmKey, On: !b.working && !held, Do: b.confirm}}
}

// confirm records the new bridge funding address (withdrawal.ConfirmBridge).
func (b *bridgeConfirmScreen) confirm() tea.Cmd {
	b.working, b.err = true, nil
	env, path, expected, seen, now := b.app.Target.Env, b.app.Target.BridgePins(), b.change.Expected, b.change.Seen, b.app.Common.Now()
	return func() tea.Msg {
		return bridgeConfirmedMsg{err: withdrawal.ConfirmBridge(env, path, expected, seen, now)}
	}
}

func (b *bridgeConfirmScreen) Update(msg tea.Msg) (tui.Screen, tea.Cmd) {
	// While held (a key held down holds on), Y is off and nothing acts.
	msg, settle := b.hold.Update(msg, b.app.Common.Now(), b.app.Timer)
	if msg == nil {
		return b, settle
	}
	switch msg := msg.(type) {
	case bridgeConfirmedMsg:
		b.working = false
		if moved, ok := errors.AsType[*withdrawal.BridgeMovedError](msg.err); ok {
			b.err = exchange.UserError{Text: "the recorded bridge address changed to " + moved.Recorded + " while this screen was open: nothing was recorded; go back and review the withdrawal again", Cause: msg.err}
			return b, nil
		}
		if msg.err != nil {
			b.err = msg.err
			return b, nil
		}
		return b, tea.Sequence(tui.Pop(b), tui.ShowInfo("New bridge address recorded: the review checks it again"))
	case tea.KeyPressMsg:
		cmd, _ := b.bindings().Handle(msg)
		return b, b.hold.Then(settle, cmd)
	}
	return b, nil
}

// dropped is what the screen says first of a key its hold dropped: esc
// goes back, the review having pushed it.
func (b *bridgeConfirmScreen) dropped() string {
	return b.hold.DroppedSaid(b.app.Common.Now(), b.keys(false), true)
}

func (b *bridgeConfirmScreen) View() string {
	c := b.app.Common
	st := c.Styles
	const lw = 16
	var s strings.Builder
	s.WriteString(layout.WrapField(c, "Recorded", lw, st.Value.Render(b.change.Expected), "first seen "+b.change.Since.UTC().Format("2006-01-02"), b.wd) + "\n")
	s.WriteString(layout.WrapField(c, "Now given", lw, st.Danger.Render(b.change.Seen), "by environment "+b.change.Env, b.wd) + "\n\n")
	s.WriteString(st.Muted.Render(layout.WrapTo(withdrawal.BridgeChangeWarning, b.wd)) + "\n\n")
	switch {
	case b.working:
		s.WriteString(st.Muted.Render("Recording the new address…"))
	case b.err != nil:
		s.WriteString(layout.ErrorBlock(c, "Not recorded", b.err, b.wd))
	case b.held() && b.hold.Pasted():
		s.WriteString(st.Muted.Render(kit.PasteAnswersNothing + ": type Y yourself " + b.hold.InSeconds(c.Now()) + "."))
	case b.held() && b.dropped() != "":
		s.WriteString(st.Muted.Render(layout.WrapTo(b.dropped()+"read the addresses above; "+b.hold.KeysEnabled(c.Now())+".", b.wd)))
	case b.held():
		s.WriteString(st.Muted.Render("Read the addresses above; " + b.hold.KeysEnabled(c.Now()) + "."))
	default:
		s.WriteString(layout.WrapTo("Press Y (shift+y) to trust the new address; esc to go back with nothing changed.", b.wd))
	}
	return layout.Clip(s.String(), b.wd)
}
