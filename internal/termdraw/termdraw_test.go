package termdraw

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	"github.com/svcwallet/svcwallet/tui"
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
	s := &screen{term: vt.NewEmulator(w, h), wrote: make(chan struct{}, 64)}
	// The emulator answers queries (modes 2026 and 2027) on its input,
	// which no one reads here: drained, or its writes wait for ever.
	go func() { _, _ = io.Copy(io.Discard, s.term) }()
	return s
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

// BenchmarkPaintALineChanged: a frame of 120x40 whose one line changes
// each time (the board's count as answers come), painted as the drawer
// does; with "whole" every line is parsed and compared again.
func BenchmarkPaintALineChanged(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 7))
	w, h := 120, 40
	var base []string
	for len(base) < h {
		base = frame(r, w, h, nil)
	}
	one := strings.Join(base, "\n")
	base[5] = "asked 1 of 2"
	other := strings.Join(base, "\n")
	for _, whole := range []bool{false, true} {
		b.Run(map[bool]string{false: "changed", true: "whole"}[whole], func(b *testing.B) {
			d := newDrawer(io.Discard, w, h, colorprofile.TrueColor, nil, 0)
			for i := range b.N {
				v := tea.View{Content: one}
				if i%2 == 1 {
					v.Content = other
				}
				if whole {
					d.lines = nil
				}
				var out bytes.Buffer
				d.paint(&out, &v, terminal{w: w, h: h}, false)
			}
		})
	}
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
				// A real terminal keeps (and reflows) what it showed: the
				// next frame must not rely on a blank screen.
				_, _ = s.term.Write([]byte(ansi.CursorHomePosition + strings.Repeat(strings.Repeat("#", w)+"\r\n", h-1) + strings.Repeat("#", w)))
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

// TestAStyleLeftOnCarriesToTheNextLine: a line that ends with a style on
// (no reset) colours the next; only the lines that changed are drawn
// again, but such a frame is drawn whole.
func TestAStyleLeftOnCarriesToTheNextLine(t *testing.T) {
	s := newScreen(20, 5)
	d := newDrawer(s, 20, 5, colorprofile.TrueColor, nil, 0)
	defer d.Close()
	for _, content := range []string{"plain\nnext", "blue\x1b[44m\nnext", "blue\x1b[44m\nnew"} {
		d.Frame(tea.View{Content: content, AltScreen: true})
		s.shows(t, content, 20, 5)
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

// TestModesAskedBeforeTheFirstErase: the terminal is asked about modes 2026
// and 2027 by Bubble Tea's rule (not Apple's Terminal, which prints the
// query's last letter, nor over ssh unless the terminal is one known to
// answer), and before the first frame's erase, which wipes a letter printed.
func TestModesAskedBeforeTheFirstErase(t *testing.T) {
	query := ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore
	for _, tc := range []struct {
		env []string
		ask bool
	}{
		{env: []string{"TERM=xterm-256color"}, ask: true},
		{env: []string{"TERM=xterm-256color", "TERM_PROGRAM=tmux"}, ask: true},
		{env: []string{"TERM=xterm-256color", "TERM_PROGRAM=Apple_Terminal"}},
		{env: []string{"TERM=xterm-256color", "SSH_TTY=/dev/pts/3"}},
		{env: []string{"TERM=xterm-kitty", "SSH_TTY=/dev/pts/3"}, ask: true},
		{env: []string{"WT_SESSION=1", "SSH_TTY=/dev/pts/3"}, ask: true},
	} {
		s := newScreen(40, 10)
		d := New(s, 40, 10, colorprofile.TrueColor, tc.env)
		d.FirstFrame(tea.View{Content: "Sandbox demo", AltScreen: true})
		d.Close()
		out := s.raw.String()
		asked, erase := strings.Index(out, query), strings.Index(out, ansi.EraseEntireScreen)
		switch {
		case !tc.ask && asked >= 0:
			t.Errorf("%v: asked %q", tc.env, out)
		case tc.ask && (asked < 0 || erase < asked):
			t.Errorf("%v: not asked before the erase: %q", tc.env, out)
		}
	}
}

// TestGraphemeWidthsOnceTheTerminalSaysSo: a terminal that knows mode 2027
// has it turned on and the screen drawn again in full (a ⚠️'s width is two
// cells then, not one), and turned off as the console ends.
func TestGraphemeWidthsOnceTheTerminalSaysSo(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, []string{"TERM=xterm-256color"})
	d.FirstFrame(tea.View{Content: "⚠️ check", AltScreen: true})
	before := s.count()
	d.Filter(nil, tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset})
	for s.count() == before {
		s.wait(t)
	}
	s.mu.Lock()
	redraw := s.raw.String()[strings.LastIndex(s.raw.String(), "check")-40:]
	s.mu.Unlock()
	if !strings.Contains(redraw, ansi.SetModeUnicodeCore) || !strings.Contains(redraw, ansi.EraseEntireScreen) {
		t.Errorf("after the answer, not mode 2027 and a full redraw: %q", redraw)
	}
	d.Close()
	if out := s.raw.String(); !strings.Contains(out[strings.LastIndex(out, "check"):], ansi.ResetModeUnicodeCore) {
		t.Errorf("mode 2027 left on: %q", out)
	}
}

// boom panics on its first key.
type boom struct{}

func (boom) Init() tea.Cmd { return nil }

func (boom) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		panic("the model broke")
	}
	return boom{}, nil
}

func (boom) View() tea.View { return tea.View{Content: "Sandbox demo", AltScreen: true} }

// TestAPanicsTraceOutlivesTheAlternateScreen: Bubble Tea writes a caught
// panic's trace to standard error, which the drawer holds and writes after
// it has left the alternate screen and given raw mode back, not into the
// screen it leaves.
func TestAPanicsTraceOutlivesTheAlternateScreen(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	restored := false
	d.restore = func() error { restored = true; return nil }
	if err := d.holdStderr(writerFunc(func(b []byte) (int, error) {
		if !restored {
			t.Error("standard error written before raw mode was given back")
		}
		return s.Write(b)
	})); err != nil {
		t.Fatal(err)
	}
	d.FirstFrame(boom{}.View())
	p := tea.NewProgram(NewModel(boom{}, d), tea.WithoutRenderer(), tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	go p.Send(tea.KeyPressMsg{Code: 'x'})
	if _, err := p.Run(); !errors.Is(err, tea.ErrProgramPanic) {
		t.Fatalf("Run: %v", err)
	}
	d.Close()
	out := s.raw.String()
	left, trace := strings.Index(out, ansi.ResetModeAltScreenSaveCursor), strings.Index(out, "the model broke")
	if trace < 0 || left < 0 || trace < left || !strings.Contains(out[trace:], "termdraw.boom.Update") {
		t.Errorf("the trace is not after the alternate screen is left (at %d, left at %d): %q", trace, left, out)
	}
	if s.term.IsAltScreen() {
		t.Error("the emulator is still on the alternate screen")
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestKeyboardEnhancementsAsTheViewAsks: the first frame pushes the kitty
// keyboard flags the console's view asks for (tui.KeyboardAsked: 31, event
// types for every key as an escape code, with its text and shifted key,
// beside the disambiguation Bubble Tea always asks), a view asking
// otherwise sets them in place, and the teardown pops them: a terminal
// speaking the protocol then tells a held enter's repeats, and the shell
// gets its keys back as they were. The flags are asked for once pushed:
// unasked, the drawn console never learnt the terminal tells repeats, and
// every review held its keys the longer guard.
func TestKeyboardEnhancementsAsTheViewAsks(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	d.Frame(tea.View{Content: "review", AltScreen: true, KeyboardEnhancements: tui.KeyboardAsked})
	s.wait(t)
	if got := s.raw.String(); !strings.Contains(got, ansi.PushKittyKeyboard(31)+ansi.RequestKittyKeyboard) {
		t.Fatalf("the first frame pushed no flags 31, or did not ask for them after: %q", got)
	}
	d.Frame(tea.View{Content: "review", AltScreen: true})
	s.wait(t)
	if got := s.raw.String(); !strings.Contains(got, ansi.KittyKeyboard(1, 1)) {
		t.Fatalf("a view asking no event types did not set flags 1: %q", got)
	}
	d.Close()
	if got := s.raw.String(); !strings.HasSuffix(got[:strings.LastIndex(got, ansi.ResetModeAltScreenSaveCursor)], ansi.PopKittyKeyboard(1)+ansi.ResetModeBracketedPaste+ansi.SetModeTextCursorEnable) {
		t.Fatalf("the teardown did not pop the flags: %q", got)
	}
}

// TestCtrlZStopsUntilContinued: ctrl+z gives the terminal back as Close
// does (the main screen, the keyboard's flags popped, raw mode restored)
// before the console stops, and once it is continued (fg) takes it again
// and draws the last frame whole; the model is told it shows again
// (tui.ShownAgainMsg), so a question that signs holds its keys anew.
func TestCtrlZStopsUntilContinued(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	restored, raws := 0, 0
	d.restore = func() error { restored++; return nil }
	d.raw = func() error { raws++; return nil }
	var atStop string
	var altAtStop bool
	d.stopJob = func() {
		s.mu.Lock()
		atStop, altAtStop = s.raw.String(), s.term.IsAltScreen()
		s.mu.Unlock()
		if restored != 1 || raws != 0 {
			t.Errorf("stopped with raw mode restored %d times, set again %d", restored, raws)
		}
	}
	d.Frame(tea.View{Content: "review", AltScreen: true, KeyboardEnhancements: tui.KeyboardAsked})
	s.wait(t)
	if _, ok := d.Filter(nil, tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}).(tui.ShownAgainMsg); !ok {
		t.Fatal("ctrl+z did not tell the model it shows again")
	}
	if altAtStop || !strings.Contains(atStop[strings.LastIndex(atStop, "review"):], ansi.PopKittyKeyboard(1)) {
		t.Fatalf("stopped on the alternate screen (%v) or with the keyboard's flags on: %q", altAtStop, atStop)
	}
	s.shows(t, "review", 40, 10)
	s.mu.Lock()
	again := strings.TrimPrefix(s.raw.String(), atStop)
	s.mu.Unlock()
	if !strings.Contains(again, ansi.SetModeAltScreenSaveCursor) || !strings.Contains(again, ansi.PushKittyKeyboard(31)) || raws != 1 {
		t.Fatalf("continued, the terminal was not set up again (raw mode %d times): %q", raws, again)
	}
	d.Close()
}
