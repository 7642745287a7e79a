// Package tui is svcwallet's root Bubble Tea model: a stack of screens with
// global keys, a top bar, a help footer, error toasts, window sizing and
// theme detection. It knows no screen by name; main hands it the first one and
// screens navigate with the Push, Pop and Reset commands.
package tui

import (
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/svcwallet/svcwallet/theme"
)

// PushMsg puts Screen on top of the stack. Prefer the Push command.
type PushMsg struct{ Screen Screen }

// PopMsg removes Screen while it is on top, unless it is the last one.
// Prefer Pop.
type PopMsg struct{ Screen Screen }

// ResetMsg empties the stack and starts again from Screen. Prefer Reset.
type ResetMsg struct{ Screen Screen }

// ResetToMsg is ResetMsg with the screen made by Make on the event loop,
// for a Cmd that read what the screen needs off it. Prefer ResetTo.
type ResetToMsg struct{ Make func() Screen }

// ErrorMsg shows Err in an error toast. Prefer ShowError.
type ErrorMsg struct{ Err error }

// InfoMsg shows Text in an info toast. Prefer ShowInfo.
type InfoMsg struct{ Text string }

// ShownAgainMsg tells the top screen that its area grew (the too-small
// notice, the help or a toast is gone, the window is larger), so what it
// could not show whole may show now: a question that signs holds its keys
// as when it first showed (kit.KeyHold).
type ShownAgainMsg struct{}

// Screen is one page of the console. Only the top screen of the stack
// receives messages, and only the top screen is drawn. The root keeps the
// global ones: a screen never sees tea.WindowSizeMsg (it gets SetSize, and
// ShownAgainMsg when its area grew) nor
// the status, toast and navigation messages; tea.BackgroundColorMsg goes to
// every screen on the stack, after Common.Styles was rebuilt, so screens
// that hold bubbles can restyle them.
type Screen interface {
	// Init runs each time the screen is put on the stack (Push, Reset, or as
	// the first screen), after SetSize.
	Init() tea.Cmd
	Update(tea.Msg) (Screen, tea.Cmd)
	// View draws the content area: at most the width and height last given
	// to SetSize. The root truncates anything larger.
	View() string
	// SetSize gives the content area, which excludes the top bar, toast
	// and help footer. It is called on every resize and whenever the area
	// changes (a toast appears, full help opens).
	SetSize(width, height int)
	// Title names the screen in the top bar and the window title.
	Title() string
	// KeyMap is shown in the help footer: ShortHelp on one line, FullHelp
	// when the user presses ?. Global keys are added by the root. While
	// FullHelp holds an enabled binding for esc, Esc is the screen's (a
	// list clears its filter) and the footer offers no "esc back".
	KeyMap() help.KeyMap
}

// Busy is implemented by a screen that can have a request in flight whose
// answer must find it (a withdrawal, a builder authorization, a file for
// offline signing). Busy says, in a sentence, what is in flight and what
// quitting now would leave; "" when nothing is. While any screen on the
// stack is busy, quitting asks first with that sentence, and Esc is handed
// to the screen instead of going back (going back would lose the reply,
// since only the top screen receives messages).
type Busy interface {
	Busy() string
}

// Inputting is implemented by a screen with a focused text input. While it
// reports true, the global single-letter keys (q, ?) go to the screen; ctrl+c
// keeps its global meaning, and so does Esc unless the screen's KeyMap
// offers esc itself (see KeyMap).
type Inputting interface {
	Inputting() bool
}

// Holding is implemented by a screen whose question that signs, pays or
// trusts holds its keys (kit.KeyHold). While HoldsKeys reports true, Esc
// is handed to the screen, which drops it and holds on, and the footer
// offers no "esc back": going back is one of the question's answers, and
// the screen says in how many seconds keys act. ?, q and ctrl+c keep their meaning.
type Holding interface {
	HoldsKeys() bool
}

// Asking is implemented by a screen whose question signs, pays or trusts
// (the reviews, the changed bridge address): while Asks, a toast of keys a
// paste carried is drawn in the footer's row, never taking a row the
// question needs, so the question stays whole and is not shown again
// (ShownAgainMsg, a hold begun again) when the toast goes.
type Asking interface {
	Asks() bool
}

// Resumer is implemented by a screen that wants to know it is on top again
// because the screen above it was popped. Timer ticks it scheduled before
// were dropped while it was hidden, so Resume is where it takes a new Tag and
// restarts them (and refreshes data that may have changed).
type Resumer interface {
	Resume() tea.Cmd
}

// Owned is a message for the visit that made it (a timer's tick, the
// answer to a request it sent), named by that visit's Tag.
type Owned interface {
	Owner() Tag
}

// Follower is a screen that keeps working while another is on top of it
// (the watch board goes on following its withdrawals while one of its rows
// is open): an Owned message whose Tag it Holds reaches it wherever it is
// on the stack. Other messages still reach the top screen only.
type Follower interface {
	Holds(Tag) bool
}

// Wheeler is a screen that scrolls with the mouse wheel while Wheel
// reports true (a list that has the keys): the root then asks the terminal
// for mouse events and hands the screen tea.MouseWheelMsg. Asking takes
// dragging to select text away from the terminal (most select with shift
// held then), so a screen asks only while the wheel has a use.
type Wheeler interface {
	Wheel() bool
}

// Leaver is a screen that wants to know when it leaves the stack for good
// (popped, replaced or reset away), to cancel the calls it made.
type Leaver interface {
	Leave()
}

// Owing is a screen that owes a write when it leaves the stack (popped
// or reset away): Owed is the command that makes it, run as it
// leaves, since a timer that would have made it finds no screen then.
type Owing interface {
	Owed() tea.Cmd
}

// Paced is a message whose change to the frame may wait up to a second for
// the next frame: a follower's answers and ticks, five a second on the
// watch board. A frame after any other message (input, a screen opened, an
// answer to what the user did, a spinner, a countdown) is drawn at once.
type Paced interface{ Paced() }

// Push returns a command that shows s on top of the current screen.
func Push(s Screen) tea.Cmd { return func() tea.Msg { return PushMsg{Screen: s} } }

// Pop returns a command that takes s off the stack, going back to the
// screen under it, if s is still on top when the message arrives: a screen
// that asks twice (a key and a tick at once) goes back once, never past the
// screen under it. On the first screen it does nothing.
func Pop(s Screen) tea.Cmd { return func() tea.Msg { return PopMsg{Screen: s} } }

// Reset returns a command that drops every screen and shows s alone, e.g. the
// login screen after the session ends.
func Reset(s Screen) tea.Cmd { return func() tea.Msg { return ResetMsg{Screen: s} } }

// ResetTo is the message of a Cmd that resets the stack to the screen build
// builds, on the event loop.
func ResetTo(build func() Screen) tea.Msg { return ResetToMsg{Make: build} }

// Tag identifies one visit of a screen, so the screen can tell its own timer
// ticks from stale ones.
//
// Convention: a screen calls NextTag in Init (and in Resume), keeps the tag,
// puts it in every tick message it schedules, and ignores a tick whose tag is
// not its current one. A tick that fires after its screen was left reaches
// whichever screen is on top instead; that screen does not recognise the
// tag (or the type) and drops it, so a timer dies when its visit ends and
// never runs twice after a return.
type Tag uint64

var lastTag atomic.Uint64

// NextTag returns a Tag never returned before in this process.
func NextTag() Tag { return Tag(lastTag.Add(1)) }

// Common is the state the root shares with every screen by pointer: screens
// keep the *Common they were built with and read it on each View, so a theme
// change made by the root shows up without a message.
type Common struct {
	// Styles are rebuilt in place when the terminal background is detected.
	Styles theme.Styles
	// Width and Height are the content area, the values SetSize receives.
	Width, Height int
	// Now is the clock for everything that shows or compares times, so
	// tests can fix it.
	Now func() time.Time
	// TopBar gives the top bar's contents; the bar calls it every time it
	// draws, so it always shows the session as it is (a silent re-login's
	// new expiry included). Nil shows the app name and title only.
	TopBar func() TopBar
	// Profile is what the terminal shows of the styles, as the program
	// detected it (tea.ColorProfileMsg): colours and attributes, only
	// attributes (NO_COLOR), or neither (TERM=dumb). Unknown until then,
	// drawn as colour.
	Profile colorprofile.Profile
	// RepeatsTold: the terminal said it tells a held key's repeats from
	// presses (tea.KeyboardEnhancementsMsg, KeyboardAsked's event types),
	// so a question that signs may hold keys the shorter kit.ShownGuardTold.
	RepeatsTold bool
	// ThenMend is the step after an error's own fix when that fix names no
	// command (a file refused for its name: rename it), set by the console
	// (kit.App.ThenMend); nil adds nothing.
	ThenMend func(error) string
}

// Said is err's text as the console shows it: with the step after its fix
// (ThenMend).
func (c *Common) Said(err error) string {
	if c.ThenMend == nil {
		return err.Error()
	}
	return err.Error() + c.ThenMend(err)
}

// Plain says the terminal shows no text attribute (TERM=dumb): no colour,
// bold or reverse video, so only characters carry meaning.
func (c *Common) Plain() bool { return c.Profile == colorprofile.NoTTY }

// Colours says the terminal shows colours (not NO_COLOR nor TERM=dumb).
func (c *Common) Colours() bool {
	return c.Profile == colorprofile.Unknown || c.Profile >= colorprofile.ANSI
}

// NewCommon returns a Common with styles for a dark or light background and
// the given clock; a nil clock means time.Now. Until the terminal answers
// the background query the root keeps these styles.
func NewCommon(isDark bool, now func() time.Time) *Common {
	if now == nil {
		now = time.Now
	}
	return &Common{Styles: theme.New(isDark), Now: now}
}

// TopBar is what the top bar shows besides the app name and screen title.
// Empty fields are left out.
type TopBar struct {
	Env            string
	ChainID        uint64
	Account        string // funding address, shown shortened
	SubAccount     string
	SessionExpires time.Time // the countdown uses Common.Now at each render
}

// ShowError returns a command that shows err.Error() in an error toast; the
// text must already be written for the user. A nil err shows nothing.
func ShowError(err error) tea.Cmd {
	if err == nil {
		return nil
	}
	return func() tea.Msg { return ErrorMsg{Err: err} }
}

// ShowInfo returns a command that shows text in an info toast.
func ShowInfo(text string) tea.Cmd { return func() tea.Msg { return InfoMsg{Text: text} } }

// input: a message from the user (or the terminal's size), which the next
// frame answers at once.
func input(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyMsg, tea.PasteMsg, tea.MouseMsg, tea.WindowSizeMsg:
		return true
	}
	return false
}

// Typed: a key pressed or a paste, what a person gives; a release or a
// modifier pressed alone (noKey) is not: the release of the Enter that
// started the console comes as the terminal answers its questions.
func Typed(msg tea.Msg) bool {
	if noKey(msg) {
		return false
	}
	switch msg.(type) {
	case tea.KeyMsg, tea.PasteStartMsg, tea.PasteMsg:
		return true
	}
	return false
}

// KeyboardAsked is what the console asks of a terminal that speaks the
// kitty keyboard protocol: the keys' event types, so it says which presses
// are a held key's repeats (they answer nothing: kit.KeyHold), for every
// key: without all keys as escape codes, enter, y and Y (the keys that
// answer) come as plain bytes, repeats and presses alike. Their text comes
// with them, and the shifted key where it does not, so what is typed reads
// as before on any layout.
var KeyboardAsked = tea.KeyboardEnhancements{ReportEventTypes: true, ReportAllKeysAsEscapeCodes: true,
	ReportAlternateKeys: true, ReportAssociatedText: true}

// noKey: a message from the keyboard that is no key a person gave: a
// release (the end of a press already taken), or, once every key comes as
// an escape code (KeyboardAsked), a modifier or lock key pressed alone.
func noKey(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyReleaseMsg:
		return true
	case tea.KeyPressMsg:
		return msg.Code >= tea.KeyCapsLock && msg.Code <= tea.KeyNumLock || msg.Code >= tea.KeyLeftShift && msg.Code <= tea.KeyIsoLevel5Shift
	}
	return false
}
