// Package termdraw draws the console's frames on the terminal when they
// change, at once and at most 60 times a second, in place of Bubble Tea's
// renderer, which draws only on a fixed-rate ticker (each tick wakes an idle
// console). Bubble Tea still runs the model, the input and the messages.
package termdraw

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/tui"
)

// MinGap is the least time between two draws: changes within it are drawn
// together, the latest frame only.
const MinGap = time.Second / 60

// Drawer owns the terminal while the console runs: raw mode, the alternate
// screen, and every byte written to it, frames and sequences in one order.
type Drawer struct {
	out     io.Writer
	restore func() error
	env     []string

	mu      sync.Mutex
	profile colorprofile.Profile // the colours the terminal shows (SetProfile)
	w, h    int
	sent    *tea.View // the last frame handed over, drawn or about to be
	next    *tea.View // the frame to draw next, nil when drawn
	seqs    []string  // sequences to write before the next frame
	resized bool
	syncd   bool // the terminal takes synchronized output (mode 2026)
	unicode bool // the terminal knows mode 2027: widths are graphemes'
	ask     bool // the terminal is one to ask about modes 2026 and 2027
	// typed: a key or paste came (tui.Typed, Filter, on the event loop);
	// a mode report after one answers no question, the first frame's come
	// first: it is a paste's bytes (ESC[201~ then ESC[?2027;1$y), not taken.
	typed bool

	wake      chan struct{}
	drewFirst chan struct{} // closed once a frame is drawn
	done      chan struct{}
	stopped   chan struct{}
	closeOnce sync.Once
	held      *held // standard error, until Close

	// stopJob stops the process until the shell continues it (ctrl+z,
	// then fg); nil where no shell would (osguard.JobControl). raw puts the
	// terminal in raw mode again once continued. stopping is a stop asked
	// (Filter), closed once the console is back on the terminal.
	stopJob  func()
	raw      func() error
	stopping chan struct{}
	// stopAsked brings a stop sent from elsewhere (SIGTSTP), taken as
	// ctrl+z is (WatchStops); nil where stopJob is. stops counts the stops
	// taken, once continued.
	stopAsked <-chan os.Signal
	stops     osguard.Stops
	// continued tells WatchSize the console was continued: a resize while
	// it was stopped signalled the shell, the foreground job then.
	continued chan struct{}

	// the drawing goroutine's own
	scr       *uv.TerminalRenderer
	buf       bytes.Buffer
	cells     uv.ScreenBuffer
	lines     []string // the lines of the frame in cells, nil to draw all again
	drawn     *tea.View
	toldFirst bool
}

// Open puts the terminal in raw mode and starts drawing; Close gives the
// terminal back as it was. w and h are the terminal's size now.
func Open(in, out *os.File, profile colorprofile.Profile, env []string) (*Drawer, error) {
	w, h, err := term.GetSize(int(out.Fd()))
	if err != nil {
		return nil, err
	}
	state, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return nil, err
	}
	d := New(out, w, h, profile, env)
	d.restore = func() error { return term.Restore(int(in.Fd()), state) }
	d.stopJob, d.stopAsked = osguard.JobControl()
	d.raw = func() error { _, err := term.MakeRaw(int(in.Fd())); return err }
	if err := d.holdStderr(os.Stderr); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// New draws on out, a terminal of w×h cells already set up; Open is the
// console's way in.
func New(out io.Writer, w, h int, profile colorprofile.Profile, env []string) *Drawer {
	return newDrawer(out, w, h, profile, env, MinGap)
}

// newDrawer is New with the least time between draws: tests draw at once.
func newDrawer(out io.Writer, w, h int, profile colorprofile.Profile, env []string, gap time.Duration) *Drawer {
	d := &Drawer{out: out, restore: func() error { return nil }, raw: func() error { return nil }, env: env, profile: profile, w: w, h: h, ask: asksModes(env),
		wake: make(chan struct{}, 1), continued: make(chan struct{}, 1), drewFirst: make(chan struct{}), done: make(chan struct{}), stopped: make(chan struct{})}
	go d.loop(gap)
	return d
}

// Size is the terminal's size as last measured.
func (d *Drawer) Size() (int, int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.w, d.h
}

// Frame hands over the model's view; it is drawn at once unless it is the
// one drawn last, or a draw was less than MinGap ago (then the latest frame
// is drawn when the gap ends). It never waits on the terminal.
func (d *Drawer) Frame(v tea.View) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sent != nil && sameView(d.sent, &v) {
		return
	}
	d.sent, d.next = &v, &v
	d.poke()
}

// FirstFrame draws v and returns once it is written, so the console's first
// frame is up before anything else the terminal is sent.
func (d *Drawer) FirstFrame(v tea.View) {
	d.Frame(v)
	select {
	case <-d.drewFirst:
	case <-d.done:
	}
}

// Write queues a sequence (a bell, the clipboard, a query) to be written at
// once, in order with the frames.
func (d *Drawer) Write(seq string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seqs = append(d.seqs, seq)
	d.poke()
}

// Resize records the terminal's new size: the last frame handed over is
// drawn again in full, and the model's next one replaces it.
func (d *Drawer) Resize(w, h int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.w, d.h, d.resized = w, h, true
	d.next = d.sent
	d.poke()
}

// SetProfile draws the screen again whole in profile's colours: what the
// terminal was found to show once the first frame was up (tmux's answer).
func (d *Drawer) SetProfile(p colorprofile.Profile) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p == d.profile {
		return
	}
	d.profile, d.resized, d.next = p, true, d.sent
	d.poke()
}

// poke wakes the drawing goroutine; d.mu is held.
func (d *Drawer) poke() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Filter is the program's message filter: sequences the model asks for go
// through the drawer, in order with the frames and at once (Bubble Tea would
// write them on its ticker); the terminal's answer about synchronized output
// turns it on, and its answer about mode 2027 makes widths graphemes' and
// the screen is drawn again with them, as Bubble Tea's renderer does.
// ctrl+z stops the console, as a shell's job (raw mode takes the key the
// terminal would have stopped it with), and so does a stop sent from
// elsewhere (stopAskedMsg); the model is told it shows again once
// continued, before any key read after: what it asks was out of sight.
// What the terminal says of itself reaches the model only as measured or
// asked: a size the drawer did not measure, or a mode report after a key or
// paste, is a paste's bytes.
func (d *Drawer) Filter(_ tea.Model, msg tea.Msg) tea.Msg {
	if tui.Typed(msg) {
		d.typed = true
	}
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		if d.stopJob != nil && m.String() == "ctrl+z" && !m.IsRepeat {
			d.stop()
			return tui.ShownAgainMsg{}
		}
	case stopAskedMsg:
		if d.stops.TakenSince(m.seen) {
			return nil
		}
		d.stop()
		return tui.ShownAgainMsg{}
	case tea.RawMsg:
		d.Write(fmt.Sprint(m.Msg))
		return nil
	case tea.WindowSizeMsg:
		// The size is the one the drawer measured (WatchSize), never a
		// size report in the input, which nobody asked for: a paste's
		// ESC[8;90;250t laid the review out past the terminal's edges.
		if w, h := d.Size(); m.Width != w || m.Height != h {
			return nil
		}
	case tea.ModeReportMsg:
		if d.typed {
			break
		}
		known := m.Value == ansi.ModeReset || m.Value == ansi.ModeSet || m.Value == ansi.ModePermanentlySet
		d.mu.Lock()
		switch {
		case m.Mode == ansi.ModeSynchronizedOutput && known:
			d.syncd = true
		case m.Mode == ansi.ModeUnicodeCore && known && !d.unicode:
			d.unicode, d.resized, d.next = true, true, d.sent
			d.poke()
		}
		d.mu.Unlock()
	}
	return msg
}

// stopAskedMsg is a stop sent from elsewhere (WatchStops), when seen
// stops had been taken: two sent at once, both handed over before the
// first is taken, stop the console once (one fg), not twice.
type stopAskedMsg struct{ seen uint64 }

// WatchStops hands send a stopAskedMsg for each stop sent from elsewhere
// (SIGTSTP) until ctx ends: taken by Filter on the event loop as ctrl+z
// is, so the terminal is given back before the console stops (its default
// action would leave it raw, on the alternate screen) and a review holds
// its keys again once continued.
func (d *Drawer) WatchStops(ctx context.Context, send func(tea.Msg)) {
	if d.stopAsked == nil {
		return
	}
	d.stops.Forward(ctx, d.stopAsked, func(seen uint64) { send(stopAskedMsg{seen: seen}) })
}

// asksModes tells whether the terminal is asked about modes 2026 and 2027
// (DECRQM), by Bubble Tea's rule: Apple's Terminal prints the query's last
// letter, and over ssh the answer may not come back; a terminal known to
// answer is asked anyway.
func asksModes(env []string) bool {
	get := func(name string) (string, bool) {
		for _, kv := range env {
			if k, v, ok := strings.Cut(kv, "="); ok && k == name {
				return v, true
			}
		}
		return "", false
	}
	prog, _ := get("TERM_PROGRAM")
	_, ssh := get("SSH_TTY")
	_, windowsTerminal := get("WT_SESSION")
	termName, _ := get("TERM")
	for _, known := range []string{"ghostty", "wezterm", "alacritty", "kitty", "rio"} {
		if strings.Contains(termName, known) {
			return true
		}
	}
	return windowsTerminal || !ssh && !strings.Contains(prog, "Apple")
}

// Close stops drawing, writes what is still queued, leaves the alternate
// screen and gives the terminal its modes back, then writes what standard
// error was sent meanwhile (a panic's trace). Safe to call more than once.
func (d *Drawer) Close() error {
	var err error
	d.closeOnce.Do(func() {
		close(d.done)
		<-d.stopped
		d.mu.Lock()
		seqs := d.seqs
		d.seqs = nil
		d.mu.Unlock()
		var out bytes.Buffer
		for _, s := range seqs {
			out.WriteString(s)
		}
		if d.drawn != nil {
			out.WriteString(teardown(d.drawn, d.cells.Method == ansi.GraphemeWidth))
		}
		_, err = d.out.Write(out.Bytes())
		if rerr := d.restore(); err == nil {
			err = rerr
		}
		if d.held != nil {
			d.held.release()
		}
	})
	return err
}

// loop draws what Frame hands over. A panic in it gives the terminal back
// before it ends the program, as Bubble Tea does for one in the model.
func (d *Drawer) loop(minGap time.Duration) {
	defer func() {
		if r := recover(); r != nil {
			_ = d.Close() // d.stopped is closed by then: the defer below runs first
			panic(r)
		}
	}()
	defer close(d.stopped)
	gap := time.NewTimer(0)
	<-gap.C
	for {
		select {
		case <-d.done:
			return
		case <-d.wake:
		}
		d.drawOnce()
		gap.Reset(minGap)
		select {
		case <-d.done:
			return
		case <-gap.C:
		}
	}
}

// stop gives the terminal back, stops the console until it is continued,
// then takes the terminal again and draws the last frame whole.
func (d *Drawer) stop() {
	done := make(chan struct{})
	d.mu.Lock()
	d.stopping = done
	d.poke()
	d.mu.Unlock()
	select {
	case <-done:
	case <-d.stopped:
	}
}

// drawOnce writes the queued sequences and the latest frame in one write;
// a stop asked gives the terminal back between them.
func (d *Drawer) drawOnce() {
	d.mu.Lock()
	v, seqs, resized, stopping := d.next, d.seqs, d.resized, d.stopping
	if stopping != nil {
		v = d.sent // continued: drawn whole on a terminal set up again
	}
	term := terminal{w: d.w, h: d.h, syncd: d.syncd, unicode: d.unicode, ask: d.ask, profile: d.profile}
	d.next, d.seqs, d.resized, d.stopping = nil, nil, false, nil
	d.mu.Unlock()
	var out bytes.Buffer
	for _, s := range seqs {
		out.WriteString(s)
	}
	if stopping != nil {
		if d.drawn != nil {
			out.WriteString(teardown(d.drawn, d.cells.Method == ansi.GraphemeWidth))
		}
		_, _ = d.out.Write(out.Bytes())
		out.Reset()
		_ = d.restore()
		d.stopJob()
		d.stops.Took()
		_ = d.raw()
		d.drawn = nil
		defer close(stopping)
		select {
		case d.continued <- struct{}{}:
		default:
		}
	}
	if v != nil {
		d.paint(&out, v, term, resized)
	}
	if out.Len() > 0 {
		_, _ = d.out.Write(out.Bytes())
	}
	if v != nil && d.drawn == v && !d.toldFirst {
		d.toldFirst = true
		close(d.drewFirst)
	}
}
