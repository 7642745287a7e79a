package termdraw

import (
	"io"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

// counter is a model whose view is the number of messages it had and
// counts how often it is asked for it.
type counter struct {
	msgs  int
	views *int
}

func (c counter) Init() tea.Cmd { return nil }

func (c counter) Update(tea.Msg) (tea.Model, tea.Cmd) { c.msgs++; return c, nil }

func (c counter) View() tea.View {
	*c.views++
	return tea.View{Content: strconv.Itoa(c.msgs), AltScreen: true}
}

// paced is a Model on a fake clock whose waits are told on waits.
type paced struct {
	t     *testing.T
	m     tea.Model
	clock *exchangetest.FakeClock
	views int
	waits []time.Duration
	fire  []chan time.Time
}

func newPaced(t *testing.T) *paced {
	p := &paced{t: t, clock: exchangetest.NewFakeClock(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC))}
	d := newDrawer(io.Discard, 20, 5, 0, nil, 0)
	t.Cleanup(func() { d.Close() })
	p.m = Model{Inner: counter{views: &p.views}, Drawer: d, pace: &pace{now: p.clock.Now, after: func(d time.Duration) <-chan time.Time {
		p.waits = append(p.waits, d)
		ch := make(chan time.Time, 1)
		p.fire = append(p.fire, ch)
		return ch
	}}}
	return p
}

// send hands msg to the model at the clock's time plus at, as Bubble Tea
// does (Update, then View), and returns the frame Bubble Tea is given and
// the command.
func (p *paced) send(msg tea.Msg) (string, tea.Cmd) {
	var cmd tea.Cmd
	p.m, cmd = p.m.Update(msg)
	return p.m.View().Content, cmd
}

// background is a paced message from a command (a follower's answer).
type background struct{}

func (background) Paced() {}

// answer is a message from a command that is not paced: a screen opened,
// the answer to what the user did, a spinner's tick.
type answer struct{}

// TestInputAtOnceBackgroundOnceASecond: after a key, a paste, the mouse, a
// resize or any message that is not paced the frame is drawn at once; after
// paced ones (a follower's answers) it is drawn at once when no frame was
// drawn for one within a second, else when that second ends, the latest
// frame only, with the inner view asked only then.
func TestInputAtOnceBackgroundOnceASecond(t *testing.T) {
	p := newPaced(t)
	if got, cmd := p.send(background{}); got != "1" || cmd != nil {
		t.Fatalf("the first answer drew %q (want 1), command %v", got, cmd != nil)
	}
	p.clock.Advance(300 * time.Millisecond)
	got, wait := p.send(background{})
	if got != "1" || wait == nil || len(p.waits) != 1 || p.waits[0] != 700*time.Millisecond {
		t.Fatalf("an answer 0.3 s after a drawn one drew %q, waits %v", got, p.waits)
	}
	p.clock.Advance(100 * time.Millisecond)
	if got, cmd := p.send(background{}); got != "1" || cmd != nil || p.views != 1 {
		t.Fatalf("a third answer drew %q or waited again (%v) or asked the view (%d times)", got, cmd != nil, p.views)
	}
	p.fire[0] <- p.clock.Now()
	p.clock.Advance(600 * time.Millisecond)
	if got, _ := p.send(wait()); got != "3" {
		t.Fatalf("the wait's end drew %q, want the latest frame 3", got)
	}

	// Input and unpaced messages draw at once, with what came in the
	// background meanwhile.
	p.clock.Advance(200 * time.Millisecond)
	_, wait = p.send(background{})
	for i, in := range []tea.Msg{tea.KeyPressMsg{Code: 'a'}, tea.PasteMsg{Content: "q-1"}, tea.MouseClickMsg{}, tea.WindowSizeMsg{Width: 20, Height: 5}, tea.FocusMsg{}, answer{}} {
		if got, cmd := p.send(in); got != strconv.Itoa(5+i) || cmd != nil {
			t.Fatalf("%T drew %q, want %d at once", in, got, 5+i)
		}
	}
	views := p.views
	p.fire[1] <- p.clock.Now()
	if got, _ := p.send(wait()); got != "10" || p.views != views {
		t.Fatalf("a wait that ended with nothing behind drew %q, asked the view %d times", got, p.views-views)
	}

	// A paced message waits a second from the last frame drawn, whatever
	// drew it: a key drawn half a second before holds it for the other half.
	p.clock.Advance(2 * time.Second)
	p.send(tea.KeyPressMsg{Code: 'b'})
	p.clock.Advance(500 * time.Millisecond)
	waits := len(p.waits)
	if got, cmd := p.send(background{}); got != "11" || cmd == nil || len(p.waits) != waits+1 || p.waits[waits] != 500*time.Millisecond {
		t.Fatalf("a paced message half a second after a key drew %q, waits %v", got, p.waits[waits:])
	}
}
