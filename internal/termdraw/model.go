package termdraw

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/tui"
)

// BackgroundGap is the least time between a frame drawn and one drawn for
// paced messages (tui.Paced): the watch board's answers, five a second, are
// drawn once a second. Every other change is drawn at once.
const BackgroundGap = time.Second

// Model runs a model under Bubble Tea and hands the drawer its views.
// Bubble Tea asks for a view after every Update; the inner model's is asked
// only when a frame is to be drawn: at once after any message but a paced
// one (tui.Paced), and after a paced one once BackgroundGap has passed
// since the last frame drawn (then the latest frame only). A
// screen opened, a review above all, is thus on the terminal as soon as
// its model is.
type Model struct {
	Inner  tea.Model
	Drawer *Drawer
	*pace
}

// pace is what Model keeps between Bubble Tea's calls, all on its event loop.
type pace struct {
	now     func() time.Time
	after   func(time.Duration) <-chan time.Time
	atOnce  bool      // a change to draw at once came since the last frame
	waited  bool      // the background wait ended
	behind  bool      // a paced change is not drawn yet
	waiting bool      // a wait is out
	drawnAt time.Time // when a frame was last drawn
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
	case tui.Paced:
		m.behind = true
	default:
		m.atOnce = true
	}
	var cmd tea.Cmd
	m.Inner, cmd = m.Inner.Update(msg)
	if !m.behind || m.atOnce || m.waiting {
		return m, cmd
	}
	left := BackgroundGap - m.now().Sub(m.drawnAt)
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
	draw := m.atOnce || m.waited && m.behind
	if draw {
		m.view = m.Inner.View()
		m.Drawer.Frame(m.view)
		m.drawnAt = m.now()
		m.behind = false
	}
	m.atOnce, m.waited = false, false
	return m.view
}
