package termdraw

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// BackgroundGap is the least time between two frames drawn for what came
// in the background (an answer, a timer): the watch board's answers, five a
// second, are drawn once a second. What the user does is drawn at once.
const BackgroundGap = time.Second

// Model runs a model under Bubble Tea and hands the drawer its views.
// Bubble Tea asks for a view after every Update; the inner model's is asked
// only when a frame is to be drawn: at once after input (a key, a paste,
// the mouse, a resize, focus, the terminal's colours), and after a
// background message once BackgroundGap has passed since the last frame
// drawn for one (then the latest frame only).
type Model struct {
	Inner  tea.Model
	Drawer *Drawer
	*pace
}

// pace is what Model keeps between Bubble Tea's calls, all on its event loop.
type pace struct {
	now     func() time.Time
	after   func(time.Duration) <-chan time.Time
	input   bool      // input came since the last frame
	waited  bool      // the background wait ended
	behind  bool      // a background change is not drawn yet
	waiting bool      // a wait is out
	lastBg  time.Time // when a frame was last drawn for a background change
	view    tea.View  // the frame drawn last
}

// NewModel runs inner, drawn by d on the real clock.
func NewModel(inner tea.Model, d *Drawer) Model {
	return Model{Inner: inner, Drawer: d, pace: &pace{now: time.Now, after: time.After}}
}

// drawDue is the end of a background wait.
type drawDue struct{}

// Init is the inner model's.
func (m Model) Init() tea.Cmd { return m.Inner.Init() }

// Update is the inner model's, noting what the message asks of the drawer.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case drawDue:
		m.waiting, m.waited = false, true
		return m, nil
	case tea.KeyMsg, tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg, tea.MouseMsg, tea.WindowSizeMsg,
		tea.FocusMsg, tea.BlurMsg, tea.BackgroundColorMsg:
		m.input = true
	default:
		m.behind = true
	}
	var cmd tea.Cmd
	m.Inner, cmd = m.Inner.Update(msg)
	if !m.behind || m.input || m.waiting {
		return m, cmd
	}
	left := BackgroundGap - m.now().Sub(m.lastBg)
	if left <= 0 {
		m.waited = true
		return m, cmd
	}
	m.waiting = true
	wait := m.after(left)
	return m, tea.Batch(cmd, func() tea.Msg { <-wait; return drawDue{} })
}

// View is the frame drawn last, or the inner model's view, handed to the
// drawer, when one is to be drawn now.
func (m Model) View() tea.View {
	draw := m.input || m.waited && m.behind
	if draw {
		m.view = m.Inner.View()
		m.Drawer.Frame(m.view)
		if !m.input {
			m.lastBg = m.now()
		}
		m.behind = false
	}
	m.input, m.waited = false, false
	return m.view
}
