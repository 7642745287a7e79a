//go:build !windows

package termdraw

import (
	"context"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// TestASizeChangedBeforeWatchingIsSeen: a resize between the drawer's
// opening and its watching for SIGWINCH (no signal seen) is drawn and told.
func TestASizeChangedBeforeWatchingIsSeen(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	defer d.Close()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	told := make(chan tea.Msg, 1)
	d.watchSize(ctx, func() (int, int, error) { return 60, 20, nil }, func(m tea.Msg) { told <- m })
	select {
	case m := <-told:
		if m != (tea.WindowSizeMsg{Width: 60, Height: 20}) {
			t.Errorf("told %v", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the size it measured as it started was not told")
	}
	if w, h := d.Size(); w != 60 || h != 20 {
		t.Errorf("the drawer draws at %dx%d", w, h)
	}
}

// TestASizeChangedWhileStoppedIsSeen: a resize while the console was
// stopped (ctrl+z) signals the shell, the foreground job then, not the
// console: once continued (fg) it measures again, draws at the new size and
// tells the model.
func TestASizeChangedWhileStoppedIsSeen(t *testing.T) {
	s := newScreen(40, 10)
	d := New(s, 40, 10, colorprofile.TrueColor, nil)
	defer d.Close()
	var mu sync.Mutex
	w, h := 40, 10
	d.stopJob = func() {
		mu.Lock()
		w, h = 60, 20 // resized while stopped: no SIGWINCH comes
		mu.Unlock()
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	told, measured := make(chan tea.Msg, 1), make(chan struct{}, 1)
	d.watchSize(ctx, func() (int, int, error) {
		mu.Lock()
		defer mu.Unlock()
		select {
		case measured <- struct{}{}:
		default:
		}
		return w, h, nil
	}, func(m tea.Msg) { told <- m })
	<-measured // as it started: the stop comes after
	d.Frame(tea.View{Content: "review", AltScreen: true})
	s.wait(t)
	d.Filter(nil, tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl})
	select {
	case m := <-told:
		if m != (tea.WindowSizeMsg{Width: 60, Height: 20}) {
			t.Errorf("told %v", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the size the terminal took while stopped was not told")
	}
	if w, h := d.Size(); w != 60 || h != 20 {
		t.Errorf("the drawer draws at %dx%d", w, h)
	}
}
