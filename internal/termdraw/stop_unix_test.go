//go:build !windows

package termdraw

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"

	"github.com/svcwallet/svcwallet/tui"
)

// TestAStopFromElsewhereStopsAsCtrlZ: a stop sent from elsewhere (kill
// -TSTP, the shell's job control while no key is read) takes ctrl+z's
// path: the terminal is given back before the console stops, set up again
// and drawn whole once continued, and the model told it shows again; its
// default action left the terminal raw on the alternate screen, and a
// review came back without holding its keys.
func TestAStopFromElsewhereStopsAsCtrlZ(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	defer d.Close()
	restored, raws, stops := 0, 0, 0
	d.restore = func() error { restored++; return nil }
	d.raw = func() error { raws++; return nil }
	var altAtStop bool
	d.stopJob = func() {
		stops++
		s.mu.Lock()
		altAtStop = s.term.IsAltScreen()
		s.mu.Unlock()
	}
	asked := make(chan os.Signal, 1)
	d.stopAsked = asked
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := make(chan tea.Msg, 1)
	d.WatchStops(ctx, func(m tea.Msg) { sent <- m })
	d.Frame(tea.View{Content: "review", AltScreen: true})
	s.wait(t)
	asked <- unix.SIGTSTP
	var msg tea.Msg
	select {
	case msg = <-sent:
	case <-time.After(5 * time.Second):
		t.Fatal("a SIGTSTP was not handed to the program")
	}
	s.mu.Lock()
	before := s.raw.Len()
	s.mu.Unlock()
	if _, ok := d.Filter(nil, msg).(tui.ShownAgainMsg); !ok {
		t.Fatalf("the stop handed over (%T) did not tell the model it shows again", msg)
	}
	if stops != 1 || altAtStop || restored != 1 || raws != 1 {
		t.Fatalf("stopped %d times, on the alternate screen %v, raw mode restored %d times and set again %d", stops, altAtStop, restored, raws)
	}
	s.shows(t, "review", 40, 10)
	s.mu.Lock()
	again := s.raw.String()[before:]
	s.mu.Unlock()
	if !strings.Contains(again, ansi.SetModeAltScreenSaveCursor) {
		t.Fatalf("continued, the alternate screen was not taken again: %q", again)
	}
}

// TestTwoStopsAskedAtOnceStopOnce: two kill -TSTP in quick succession, both
// handed to the program before the first is taken, stop the console once:
// the second, asked before the first stop, was taken after fg as a stop of
// its own, so one stop needed two fg.
func TestTwoStopsAskedAtOnceStopOnce(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	defer d.Close()
	stops := 0
	d.stopJob = func() { stops++ }
	asked := make(chan os.Signal, 1)
	d.stopAsked = asked
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := make(chan tea.Msg, 2)
	d.WatchStops(ctx, func(m tea.Msg) { sent <- m })
	d.Frame(tea.View{Content: "review", AltScreen: true})
	s.wait(t)
	var msgs []tea.Msg
	for range 2 {
		asked <- unix.SIGTSTP
		select {
		case m := <-sent:
			msgs = append(msgs, m)
		case <-time.After(5 * time.Second):
			t.Fatal("a SIGTSTP was not handed to the program")
		}
	}
	if _, ok := d.Filter(nil, msgs[0]).(tui.ShownAgainMsg); !ok {
		t.Fatal("the first stop did not tell the model it shows again")
	}
	if got := d.Filter(nil, msgs[1]); got != nil || stops != 1 {
		t.Fatalf("the second stop asked before the first was taken: %T, stopped %d times", got, stops)
	}
	// A stop asked once continued is a stop of its own.
	asked <- unix.SIGTSTP
	if _, ok := d.Filter(nil, <-sent).(tui.ShownAgainMsg); !ok || stops != 2 {
		t.Fatalf("a stop asked after the continue: stopped %d times", stops)
	}
}
