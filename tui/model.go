package tui

import (
	"bytes"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/theme"
)

// Minimum terminal size; below it only a notice is drawn.
const (
	MinWidth  = 60
	MinHeight = 20
)

// Options configure the root model.
type Options struct {
	// Theme is "light" or "dark" to skip background detection; any other
	// value (normally "") asks the terminal, and the first frame is drawn
	// at once in the theme Common holds, then again in the one the answer
	// gives (a terminal that never answers keeps the first). main
	// validates the flag.
	Theme string
	// Now is the clock for the session countdown; nil means Common.Now.
	Now func() time.Time
	// Common is the state shared with the screens; pass the one the first
	// screen was built with. Nil makes a fresh one.
	Common *Common
	// Timer delivers msg after d, for the session countdown's redraw;
	// nil means tea.Tick. Tests record it.
	Timer func(d time.Duration, msg tea.Msg) tea.Cmd
}

var _ tea.Model = (*Model)(nil)

// Model is the root Bubble Tea model. Build it with New.
type Model struct {
	common      *Common
	stack       []Screen
	forcedTheme bool

	width, height int // terminal size
	// frameKeys is the top screen's KeyMap while View draws one frame.
	frameKeys *help.KeyMap

	toast    toast
	standing []toast // StandingMsg's words up, above the toast
	// warning is WarningMsg's words, up until a key after warningHeld,
	// which each key before it moves on by warningAgain.
	warning      toast
	warningHeld  time.Time
	warningAgain time.Duration
	fullHelp     bool
	// helpPage is the page of the full help shown, when it takes more
	// than one (helpPages).
	helpPage    int
	confirmQuit bool
	// pasteQuiet: until then keys are dropped (PasteGuard).
	pasteQuiet time.Time

	// sized: the screens have been given a size by this root (a Common
	// may come from an earlier root and already hold the same size).
	// resizeDue: a message other than input may have changed the chrome
	// since (Update).
	sized, resizeDue bool
	// The top bar and footer are drawn again only when what they show
	// changes: together they were most of a frame's cost.
	topBarMemo memo[topBarDrawn]
	footerMemo memo[footerDrawn]
	session    sessionText
	fitted     fitMemo
	// sessionDue is when the pending countdown tick fires, zero for none;
	// sessionFired when the last one fired: the next is due after it, so
	// a clock that did not move (a test's) sets no tick again.
	sessionDue, sessionFired time.Time
	timer                    func(d time.Duration, msg tea.Msg) tea.Cmd
	// started: FirstFrame ran Init, whose commands (early) the next Init
	// returns.
	started bool
	early   tea.Cmd
	// settling: the keys whose terminal question (SettleMsg) is out,
	// oldest first.
	settling []asked
	// waits: the keys asked about (SettleMsg) not yet settled, oldest
	// first, with the input that crossed them (cross).
	waits []waiting
	// answers: the terminal answered a settling question in this run, so
	// a key settles by its answer alone (settledByTime).
	answers bool
	// lastPress is the last key pressed: its release crosses nothing.
	lastPress rune
	// down: the keys pressed and not yet released (at most downMost),
	// whose releases after a later key are a person's rolled typing.
	down []rune
	// lastInput is when the terminal last sent input (late).
	lastInput time.Time
	// pressedOut: the last key was pressed while a question was out on a
	// terminal that answers (askSettle).
	pressedOut bool
	// still: the last message was input that changes nothing shown
	// (unseen, moot), so View gives the frame drawn before (frame) again while
	// no other message came since it (framed): a raw paste padded with
	// thousands of focus reports drew the review for each and kept the
	// console busy for tens of seconds.
	still  bool
	frame  tea.View
	framed bool
	// typedOnce: a key or paste came. What the terminal says of itself
	// (its background colour, its keyboard flags) after one is no answer
	// to the question at start but a paste's bytes or another program's
	// (ESC[201~ then ESC]11;… in a paste), and is not taken.
	typedOnce bool
}

// memo keeps the last value computed for a key. The key is built after
// every message, in a buffer kept between frames (next), so that a frame
// like the last allocates nothing for it.
type memo[T any] struct {
	buf, key []byte
	value    T
	ok       bool
}

// next is the buffer to build the next key in.
func (c *memo[T]) next() []byte { return c.buf[:0] }

func (c *memo[T]) get(key []byte, compute func() T) T {
	c.buf = key
	if !c.ok || !bytes.Equal(c.key, key) {
		c.key = append(c.key[:0], key...)
		c.value, c.ok = compute(), true
	}
	return c.value
}

// New returns the root model showing first.
func New(first Screen, opts Options) *Model {
	c := opts.Common
	if c == nil {
		c = NewCommon(true, opts.Now)
	}
	if opts.Now != nil {
		c.Now = opts.Now
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	m := &Model{common: c, stack: []Screen{first}, timer: opts.Timer}
	if opts.Theme == "light" || opts.Theme == "dark" {
		m.forcedTheme = true
		c.Styles = theme.New(opts.Theme == "dark")
	}
	return m
}

// Init asks the terminal for its background colour (unless the theme is
// forced) and starts the first screen; nothing waits for the answer. After
// FirstFrame it hands over the commands FirstFrame's Init gave.
func (m *Model) Init() tea.Cmd {
	if m.started {
		m.started = false
		return m.early
	}
	if m.forcedTheme {
		return m.top().Init()
	}
	return tea.Batch(tea.Raw(ansi.RequestBackgroundColor), m.top().Init())
}

// Update handles the global messages itself and hands everything else to the
// top screen only.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.cross(msg)
	if p, ok := msg.(tea.KeyPressMsg); ok {
		m.lastPress = p.Code
		m.pressed(p.Code)
		m.pressedOut = m.answers && len(m.settling) > 0
	}
	if m.still = unseen(msg) || m.moot(msg); m.still {
		if a, ok := msg.(uv.PrimaryDeviceAttributesEvent); ok {
			return m, m.settled(a) // settles a key, shows nothing
		}
		return m, nil
	}
	m.framed = false
	var cmd tea.Cmd
	if Typed(msg) {
		m.typedOnce = true
	}
	if m.resizeDue && input(msg) {
		cmd = m.resizeShown() // input acts on the content area shown
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.ColorProfileMsg:
		m.common.Profile = msg.Profile
	case tea.KeyboardEnhancementsMsg:
		m.common.RepeatsTold = msg.SupportsEventTypes()
	case tea.BackgroundColorMsg:
		m.common.Styles = theme.New(msg.IsDark())
		cmd = m.broadcast(msg)
	case ErrorMsg:
		if msg.Err != nil {
			cmd = m.showToast(true, m.common.Said(msg.Err))
		}
	case InfoMsg:
		cmd = m.showToast(false, msg.Text)
	case StandingMsg, StandingOverMsg:
		cmd = m.stand(msg)
	case WarningMsg:
		m.warn(msg)
	case dismissToastMsg:
		if msg.tag == m.toast.tag {
			m.toast = toast{}
			cmd = m.resizeShown() // the rows it took show now
		}
	case sessionTickMsg:
		if msg.due.Equal(m.sessionDue) {
			m.sessionDue, m.sessionFired = time.Time{}, msg.due // the next one is set below
		}
	case PushMsg:
		m.stack = append(m.stack, msg.Screen)
		cmd = m.enter(msg.Screen)
	case PopMsg:
		if msg.Screen == m.top() {
			cmd = m.pop()
		}
	case ResetMsg:
		cmd = m.reset(msg.Screen)
	case ResetToMsg:
		cmd = m.reset(msg.Make())
	case SettleMsg:
		cmd = m.askSettle(msg)
	case SettledMsg:
		cmd = m.settledByTime(msg) // a screen's timer (kit.KeyHold)
	case quietMsg:
		cmd = m.quieted(msg.tag)
	case lateMsg:
		cmd = m.late(msg.tag)
	case tea.ResumeMsg:
		m.resumed()
		cmd = m.updateTop(msg)
	case tea.PasteEndMsg:
		// The parser ends every paste with this, one per end marker (a
		// stray one too): the guard runs from when the paste was taken,
		// however long that took.
		cmd = m.updateTop(msg)
		m.pasteQuiet = m.common.Now().Add(PasteGuard)
	case tea.KeyPressMsg:
		if m.common.Now().Before(m.pasteQuiet) {
			cmd = m.dropPastedKey()
			break
		}
		if m.tooSmall() {
			cmd = m.smallKey(msg)
			break
		}
		cmd = m.handleKey(msg)
	case tea.MouseMsg:
		// A wheel notch within PasteGuard of a paste came with it, as keys
		// do (ESC[<65;…M past its end marker): it moves no cursor.
		if !m.tooSmall() && !m.common.Now().Before(m.pasteQuiet) {
			cmd = m.updateTop(msg)
		}
	case tea.PasteMsg:
		// Nothing shows where they would land while the terminal is too small.
		if !m.tooSmall() {
			cmd = m.updateTop(msg)
		}
	case Owned:
		cmd = m.updateOwner(msg)
	default:
		cmd = m.updateTop(msg)
	}
	// The quit question is moot once nothing is being submitted any more
	// (the answer arrived): drop it rather than ask about the past.
	if m.confirmQuit && m.busy() == "" {
		m.confirmQuit = false
	}
	m.footerMoot()
	// Any of the above may change the chrome (toast, help, prompt) and with
	// it the content area; resize only calls SetSize when it changed. After
	// input at once; after an answer or a timer when the frame is drawn
	// (View, or the next input): the footer is rebuilt from every key
	// binding, which was most of the watch board's cost an answer.
	if input(msg) {
		cmd = tea.Batch(cmd, m.resizeShown())
	} else {
		m.resizeDue = true
	}
	return m, tea.Batch(cmd, m.sessionTick())
}

// resizeShown is resize, telling the top screen that it shows again
// (ShownAgainMsg) when its area grew: what was hidden (the too-small
// notice, the help, a toast) may show now.
func (m *Model) resizeShown() tea.Cmd {
	if m.resize() && !m.tooSmall() {
		return m.updateTop(ShownAgainMsg{})
	}
	return nil
}

// View draws the whole terminal in the alternate screen, with mouse
// events while the top screen scrolls with the wheel (Wheeler), and asks
// for the keys' event types (press, repeat, release).
func (m *Model) View() tea.View {
	if m.still && m.framed {
		return m.frame
	}
	// The footer asks the top screen's keys up to six times a frame, and a
	// screen's KeyMap may lay out its view to know them (the review's fit).
	defer func() { m.frameKeys = nil }()
	m.holdKeys()
	if m.resizeDue {
		if sized, w, h := m.sized, m.common.Width, m.common.Height; m.resize() || !sized || w != m.common.Width || h != m.common.Height {
			m.holdKeys() // sized anew, a screen may offer other keys
		}
	}
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.KeyboardEnhancements = KeyboardAsked
	if w, ok := m.top().(Wheeler); ok && w.Wheel() {
		v.MouseMode = tea.MouseModeCellMotion
	}
	m.frame, m.framed = v, true
	return v
}

// unseen: msg is input that no screen takes and that changes nothing
// shown, which the root only notes (cross): a release or a modifier alone
// (noKey), and any report from the terminal but the few taken (a focus
// report, a cursor position, a sequence nothing names: a raw paste may be
// padded with any of them), the answers the root settles keys by
// (settled) among them.
func unseen(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyMsg:
		return noKey(msg)
	case tea.MouseMsg, tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg, tea.BackgroundColorMsg, tea.KeyboardEnhancementsMsg:
		return false
	}
	return fromTerminal(msg)
}

// moot: msg is what the terminal says of itself (its background colour,
// its keyboard flags) and changes nothing: it came after a key or paste
// (typedOnce: not an answer), or says what is taken already. Like unseen
// input it draws nothing: a paste carrying them redrew the review once
// each.
func (m *Model) moot(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		return m.forcedTheme || m.typedOnce || msg.IsDark() == m.common.Styles.IsDark
	case tea.KeyboardEnhancementsMsg:
		return m.typedOnce || msg.SupportsEventTypes() == m.common.RepeatsTold
	}
	return false
}

// enter sizes and starts a screen that was just put on the stack.
func (m *Model) enter(s Screen) tea.Cmd {
	m.fullHelp = false
	m.resize()
	s.SetSize(m.common.Width, m.common.Height)
	return s.Init()
}

func (m *Model) pop() tea.Cmd {
	if len(m.stack) < 2 {
		return nil
	}
	owed := leave(m.stack[len(m.stack)-1])
	m.stack[len(m.stack)-1] = nil
	m.stack = m.stack[:len(m.stack)-1]
	m.fullHelp = false
	var resume tea.Cmd
	if r, ok := m.top().(Resumer); ok {
		resume = r.Resume()
	}
	return tea.Batch(owed, resume)
}

// leave tells a screen that it left the stack, if it wants to know, and
// returns the write it owes (Owing).
func leave(s Screen) tea.Cmd {
	if l, ok := s.(Leaver); ok {
		l.Leave()
	}
	if o, ok := s.(Owing); ok {
		return o.Owed()
	}
	return nil
}

func (m *Model) updateTop(msg tea.Msg) tea.Cmd {
	next, cmd := m.top().Update(msg)
	m.stack[len(m.stack)-1] = next
	return cmd
}

// updateOwner hands an Owned message to the Follower below the top that
// holds its tag, or else to the top screen, which drops what is not its own.
func (m *Model) updateOwner(msg Owned) tea.Cmd {
	for i := len(m.stack) - 2; i >= 0; i-- {
		if f, ok := m.stack[i].(Follower); ok && f.Holds(msg.Owner()) {
			var cmd tea.Cmd
			m.stack[i], cmd = m.stack[i].Update(msg)
			return cmd
		}
	}
	return m.updateTop(msg)
}

// broadcast hands a global message to every screen, so hidden ones can
// restyle their components too.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, len(m.stack))
	for i, s := range m.stack {
		m.stack[i], cmds[i] = s.Update(msg)
	}
	return tea.Batch(cmds...)
}

// FirstFrame starts the root before Bubble Tea does, as Bubble Tea would
// (Init, then the terminal's size), and returns the frame: the console
// draws it at once rather than on Bubble Tea's first frame tick. Init's
// commands are kept for Bubble Tea's call of Init.
func (m *Model) FirstFrame(width, height int) string {
	m.early, m.started = m.Init(), true
	m.width, m.height = width, height
	m.resize()
	return m.View().Content
}

// resize recomputes the content area and tells every screen on the stack when
// it changed, so a screen revealed by Pop already has the right size.
// It reports whether the area grew, in width or height.
func (m *Model) resize() (grew bool) {
	m.resizeDue = false
	if m.frameKeys == nil { // the footer's size asks the keys three times
		m.holdKeys()
		defer func() { m.frameKeys = nil }()
	}
	w, h := m.contentSize()
	if m.sized && w == m.common.Width && h == m.common.Height {
		return false
	}
	grew = m.sized && (w > m.common.Width || h > m.common.Height)
	m.sized = true
	m.common.Width, m.common.Height = w, h
	for _, s := range m.stack {
		s.SetSize(w, h)
	}
	return grew
}

func (m *Model) contentSize() (int, int) {
	h := m.height - topBarLines - len(m.toastLines()) - len(m.footerLines())
	return max(m.width, 0), max(h, 0)
}

func (m *Model) top() Screen { return m.stack[len(m.stack)-1] }

// reset empties the stack, leaving each screen, and enters s alone.
func (m *Model) reset(s Screen) tea.Cmd {
	var owed []tea.Cmd
	for _, old := range m.stack {
		owed = append(owed, leave(old))
	}
	m.stack = []Screen{s}
	return tea.Batch(append(owed, m.enter(s))...)
}
