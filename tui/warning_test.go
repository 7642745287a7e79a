package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestWarningOutlastsTypeAhead: a warning (ShowWarning) stays until a key
// pressed after it was drawn, by the keystroke guard's rule: keys in the
// hold from when it showed, and a KeyGuard after each of them, leave it
// up; no timer and no later toast takes it down.
func TestWarningOutlastsTypeAhead(t *testing.T) {
	now := fixedNow
	c := NewCommon(true, func() time.Time { return now })
	home := newFake(c, "Home")
	m := New(home, Options{Theme: "dark", Common: c})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	shown := func() bool {
		return strings.Contains(strings.Join(strings.Fields(ansi.Strip(m.render())), " "), "Warning: the secret is in its arguments")
	}

	if _, timers := send(m, ShowWarning("Warning: the secret is in its arguments", "", time.Second, 500*time.Millisecond)()); timers != 0 {
		t.Fatalf("a warning scheduled %d dismiss timers, want none", timers)
	}
	send(m, press("j")) // typed ahead, read as the warning came
	now = now.Add(900 * time.Millisecond)
	send(m, press("j")) // in the hold: holds a KeyGuard more
	now = now.Add(400 * time.Millisecond)
	send(m, press("j")) // past the first hold, within the KeyGuard
	send(m, ShowInfo("Saved")())
	send(m, dismissToastMsg{tag: m.toast.tag}) // the later toast's timer
	if !shown() {
		t.Fatal("a key typed ahead of the warning, a later toast or its timer took it down")
	}
	if n := received[tea.KeyPressMsg](home); n != 3 {
		t.Fatalf("the screen got %d keys, want 3: the warning holds no key from it", n)
	}
	now = now.Add(600 * time.Millisecond)
	send(m, press("j"))
	if shown() {
		t.Fatal("a key pressed after the warning's hold left it up")
	}
}
