package termdraw

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

// screen is a terminal emulator the drawer writes to; each write is told on
// wrote, so a test waits for the draw it caused.
type screen struct {
	mu     sync.Mutex
	term   *vt.Emulator
	raw    strings.Builder
	writes int
	wrote  chan struct{}
}

func newScreen(w, h int) *screen {
	return &screen{term: vt.NewEmulator(w, h), wrote: make(chan struct{}, 64)}
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	s.raw.Write(p)
	n, err := s.term.Write(p)
	s.wrote <- struct{}{}
	return n, err
}

func (s *screen) wait(t *testing.T) {
	t.Helper()
	select {
	case <-s.wrote:
	case <-time.After(5 * time.Second):
		t.Fatal("the drawer wrote nothing")
	}
}

// shows waits until every cell of the emulated screen is the frame's cell,
// the same grapheme and the same style, and fails if the drawer stops
// writing before.
func (s *screen) shows(t *testing.T, content string, w, h int) {
	t.Helper()
	want := uv.NewScreenBuffer(w, h)
	uv.NewStyledString(content).Draw(want, want.Bounds())
	for {
		diff := s.differs(want, w, h)
		if diff == "" {
			return
		}
		select {
		case <-s.wrote:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s\nscreen:\n%s\nframe:\n%s", diff, s.term.String(), ansi.Strip(content))
		}
	}
}

// differs names the first cell the screen shows otherwise than want.
func (s *screen) differs(want uv.ScreenBuffer, w, h int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for y := range h {
		for x := range w {
			got, exp := cellOf(s.term.CellAt(x, y)), cellOf(want.CellAt(x, y))
			if got.Content != exp.Content || !got.Style.Equal(&exp.Style) {
				return fmt.Sprintf("cell %d,%d: got %q %+v, want %q %+v", x, y, got.Content, got.Style, exp.Content, exp.Style)
			}
		}
	}
	return ""
}

// cellOf is a cell as it shows: no cell and an empty one are a space.
func cellOf(c *uv.Cell) uv.Cell {
	if c == nil {
		return uv.Cell{Content: " ", Width: 1}
	}
	if c.Content == "" {
		return uv.Cell{Content: " ", Style: c.Style}
	}
	return *c
}

var styles = []lipgloss.Style{
	lipgloss.NewStyle(),
	lipgloss.NewStyle().Bold(true),
	lipgloss.NewStyle().Foreground(lipgloss.Color("#ff8700")),
	lipgloss.NewStyle().Background(lipgloss.Color("4")).Underline(true),
	lipgloss.NewStyle().Reverse(true).Faint(true),
}

var words = []string{"quote", "route", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "USDT", "12.345678", "COMPLETED", "•", "→", "…", "╭──╮", "日本", ""}

// frame is a random console-like frame of at most w×h cells, most of it
// the same as base when base is given (a board's row changing).
func frame(r *rand.Rand, w, h int, base []string) []string {
	lines := make([]string, r.IntN(h)+1)
	for y := range lines {
		if y < len(base) && r.IntN(4) != 0 {
			lines[y] = base[y]
			continue
		}
		var b strings.Builder
		for n := r.IntN(8); n > 0; n-- {
			b.WriteString(styles[r.IntN(len(styles))].Render(words[r.IntN(len(words))]) + strings.Repeat(" ", r.IntN(3)))
		}
		lines[y] = ansi.Truncate(b.String(), w, "")
	}
	return lines
}

// TestTheScreenShowsTheFrame replays the drawer's output through a terminal
// emulator after each frame, random frames changing a little or a lot and a
// resize now and then, and wants every cell to be the frame's: what a review
// shows is what the model's view holds.
func TestTheScreenShowsTheFrame(t *testing.T) {
	for trial := range exchangetest.Trials(40) {
		r := rand.New(rand.NewPCG(uint64(trial), 7))
		w, h := 20+r.IntN(100), 5+r.IntN(40)
		s := newScreen(w, h)
		d := newDrawer(s, w, h, colorprofile.TrueColor, []string{"TERM=xterm-256color"}, 0)
		var last []string
		for step := range 30 {
			if step > 0 && r.IntN(10) == 0 {
				w, h = 20+r.IntN(100), 5+r.IntN(40)
				s.mu.Lock()
				s.term.Resize(w, h)
				s.mu.Unlock()
				d.Resize(w, h)
			}
			last = frame(r, w, h, last)
			content := strings.Join(last, "\n")
			d.Frame(tea.View{Content: content, AltScreen: true})
			s.shows(t, content, w, h)
		}
		d.Close()
	}
}

func (s *screen) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}

// TestAFrameUnchangedIsNotDrawn: the model's view asked again after an
// Update that changed nothing writes nothing.
func TestAFrameUnchangedIsNotDrawn(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	d.Frame(tea.View{Content: "Home", AltScreen: true})
	s.wait(t)
	d.Frame(tea.View{Content: "Home", AltScreen: true})
	d.Frame(tea.View{Content: "Home!", AltScreen: true})
	s.wait(t)
	d.Close() // stops the drawing goroutine: no write can be pending after
	if n := s.count(); n != 3 {
		t.Errorf("%d writes (first frame, changed frame, teardown), want 3:\n%q", n, s.raw.String())
	}
}

// TestSequencesGoOutAtOnceInOrder: a sequence the model asks for (a bell,
// the clipboard) is written at once, not on a ticker, and never inside a
// frame's bytes.
func TestSequencesGoOutAtOnceInOrder(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	d.Frame(tea.View{Content: "one", AltScreen: true})
	s.wait(t)
	if d.Filter(nil, tea.Raw("\a")()) != nil {
		t.Error("the filter passed a raw sequence on to Bubble Tea, which would write it on its ticker")
	}
	s.wait(t)
	if got := s.raw.String(); !strings.HasSuffix(got, "\a") {
		t.Errorf("the bell is not the last thing written: %q", got)
	}
	d.Close()
}

// TestCloseGivesTheTerminalBack: the alternate screen is left, the cursor,
// the keyboard and the mouse are given back, and raw mode is restored.
func TestCloseGivesTheTerminalBack(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	restored := 0
	d.restore = func() error { restored++; return nil }
	d.Frame(tea.View{Content: "board", AltScreen: true, MouseMode: tea.MouseModeCellMotion})
	s.wait(t)
	d.Close()
	d.Close()
	tail := s.raw.String()
	for _, seq := range []string{ansi.ResetModeAltScreenSaveCursor, ansi.SetModeTextCursorEnable, ansi.ResetModeBracketedPaste,
		ansi.ResetModeMouseButtonEvent, ansi.PopKittyKeyboard(1), ansi.ResetModifyOtherKeys} {
		if !strings.Contains(tail[strings.LastIndex(tail, "board"):], seq) {
			t.Errorf("after the last frame, no %q", seq)
		}
	}
	if restored != 1 {
		t.Errorf("raw mode restored %d times, want 1", restored)
	}
	if s.term.IsAltScreen() {
		t.Error("the emulator is still on the alternate screen")
	}
}
