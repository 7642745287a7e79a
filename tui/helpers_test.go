package tui

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// tickMsg is how a screen following the Tag convention times itself.
type tickMsg struct{ tag Tag }

// otherMsg stands for any screen-bound message (a network reply, say).
type otherMsg struct{ n int }

type fakeKeys struct{ Up, Down, Enter, Refresh key.Binding }

func (k fakeKeys) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down, k.Enter} }
func (k fakeKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down}, {k.Enter, k.Refresh}}
}

var testKeys = fakeKeys{
	Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
	Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
	Enter:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "select")),
	Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
}

// fakeScreen records what the root does to it. With ticking set it follows
// the Tag convention: a fresh tag per visit, and a tick restarts the timer
// only when the tag is its own.
type fakeScreen struct {
	common          *Common
	title           string
	ticking         bool
	busy, inputting bool
	holding         bool        // its keys are held (Holding)
	asks            bool        // a question that signs is on it (Asking)
	wide            bool        // draws lines far wider than any terminal
	keys            help.KeyMap // nil: testKeys

	w, h           int
	inits, resumes int
	leaves         int
	tag            Tag
	ticks          int
	got            []tea.Msg
	keyH           []int // the content area's height each key found
	views          int   // how many times it was drawn
	keyMaps        int   // how many times its KeyMap was asked
}

func newFake(c *Common, title string) *fakeScreen { return &fakeScreen{common: c, title: title} }

func (f *fakeScreen) Leave() { f.leaves++ }

func (f *fakeScreen) Init() tea.Cmd {
	f.inits++
	return f.start()
}

func (f *fakeScreen) Resume() tea.Cmd {
	f.resumes++
	return f.start()
}

func (f *fakeScreen) start() tea.Cmd {
	if !f.ticking {
		return nil
	}
	f.tag = NextTag()
	tag := f.tag
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{tag: tag} })
}

func (f *fakeScreen) Update(msg tea.Msg) (Screen, tea.Cmd) {
	f.got = append(f.got, msg)
	if _, ok := msg.(tea.KeyPressMsg); ok {
		f.keyH = append(f.keyH, f.h)
	}
	if t, ok := msg.(tickMsg); ok && t.tag == f.tag {
		f.ticks++
		tag := f.tag
		return f, tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{tag: tag} })
	}
	return f, nil
}

func (f *fakeScreen) View() string {
	f.views++
	st := f.common.Styles
	var b strings.Builder
	b.WriteString(st.Heading.Render(f.title) + "\n\n")
	b.WriteString(st.Label.Render("Amount   ") + st.Danger.Render("1,250.000000 USDT") + "\n")
	b.WriteString(st.Label.Render("Network  ") + st.Value.Render("ARBITRUM") + "\n")
	b.WriteString(st.Label.Render("To       ") + st.Value.Render("0x3C44CdDdB6a900fa2b585dd299e03d12FA4") +
		st.Mark.Render("293BC") + "\n\n")
	for i, a := range []string{"0x3C44…93BC  COMPLETED", "0x90F7…b906  SENDING", "0x15d3…6A65  FAILED"} {
		if i == 1 {
			b.WriteString(st.Cursor.Render("> ") + st.Selected.Render(a) + "\n")
			continue
		}
		b.WriteString("  " + a + "\n")
	}
	b.WriteString("\n" + st.Muted.Render(fmt.Sprintf("content area %dx%d", f.w, f.h)))
	if f.wide {
		for i := range 60 {
			b.WriteString("\n" + strings.Repeat(fmt.Sprintf("wide-%02d-日本語 ", i), 30))
		}
	}
	return b.String()
}

func (f *fakeScreen) SetSize(w, h int) { f.w, f.h = w, h }
func (f *fakeScreen) Title() string    { return f.title }
func (f *fakeScreen) KeyMap() help.KeyMap {
	f.keyMaps++
	if f.keys != nil {
		return f.keys
	}
	return testKeys
}
func (f *fakeScreen) Busy() string {
	if f.busy {
		return "A withdrawal is being submitted; if you quit, it stays journaled and is offered at the next start."
	}
	return ""
}
func (f *fakeScreen) Inputting() bool { return f.inputting }
func (f *fakeScreen) HoldsKeys() bool { return f.holding }
func (f *fakeScreen) Asks() bool      { return f.asks }

// received counts the messages of type T the screen was given.
func received[T any](f *fakeScreen) int {
	n := 0
	for _, m := range f.got {
		if _, ok := m.(T); ok {
			n++
		}
	}
	return n
}

var fixedNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// newRoot builds a root at w x h around a fresh screen, with a fixed clock
// and a forced theme so nothing depends on the terminal.
func newRoot(t *testing.T, w, h int) (*Model, *fakeScreen) {
	t.Helper()
	c := NewCommon(true, func() time.Time { return fixedNow })
	first := newFake(c, "Home")
	m := New(first, Options{Theme: "dark", Common: c})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m, first
}

func press(s string) tea.KeyPressMsg {
	switch s {
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// send runs one message through the root and executes the returned command
// (see run), feeding navigation messages back as the runtime would.
func send(m *Model, msg tea.Msg) (msgs []tea.Msg, timers int) {
	_, cmd := m.Update(msg)
	msgs, timers = run(cmd)
	for _, out := range msgs {
		switch out.(type) {
		case PushMsg, PopMsg, ResetMsg, ErrorMsg, InfoMsg:
			more, t := send(m, out)
			msgs, timers = append(msgs, more...), timers+t
		}
	}
	return msgs, timers
}

// timerWait is far longer than any command that does not wait on a timer
// takes, and far shorter than any timer the root or a screen would set.
const timerWait = 200 * time.Millisecond

// run executes cmd and any batch it returns. A timer (tea.Tick, known by
// its function, or a command still running after timerWait) is counted in
// timers and not waited for.
func run(cmd tea.Cmd) (msgs []tea.Msg, timers int) {
	if cmd == nil {
		return nil, 0
	}
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil && strings.HasPrefix(f.Name(), "charm.land/bubbletea/v2.Tick.") {
		return nil, 1
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				ms, t := run(c)
				msgs, timers = append(msgs, ms...), timers+t
			}
			return msgs, timers
		}
		if msg == nil {
			return nil, 0
		}
		return []tea.Msg{msg}, 0
	case <-time.After(timerWait):
		return nil, 1
	}
}

// checkFrame fails unless the view fits the terminal exactly: no line wider
// than w, no more than h lines.
func checkFrame(t *testing.T, m *Model, w, h int) string {
	t.Helper()
	v := m.View()
	if !v.AltScreen {
		t.Error("view is not in the alternate screen")
	}
	lines := strings.Split(v.Content, "\n")
	if len(lines) > h {
		t.Errorf("%dx%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if sw := ansi.StringWidth(l); sw > w {
			t.Errorf("%dx%d: line %d is %d cells wide: %q", w, h, i, sw, ansi.Strip(l))
		}
	}
	return v.Content
}

// setTopBar makes the top bar show s, as a session would.
func setTopBar(m *Model, s TopBar) { m.common.TopBar = func() TopBar { return s } }
