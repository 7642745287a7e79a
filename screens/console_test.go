package screens

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// newConsole is the whole console, from its login screen, on a fresh
// sandbox: screentest's console started at Console.
func newConsole(t testing.TB, w, h int, o screentest.ConsoleOpts) *screentest.Console {
	o.Start = Console
	return screentest.NewConsole(t, w, h, o)
}

// TestHomeOpensEachFeature: each key of the home menu opens its own feature
// through the makers Console hands out, esc comes back, and L logs out to
// the login screen.
func TestHomeOpensEachFeature(t *testing.T) {
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	bar := func(v string) string { b, _, _ := strings.Cut(v, "\n"); return b }
	for _, k := range []struct{ key, title string }{
		{"d", "Deposit addresses"}, {"w", "Withdraw: route"}, {"h", "Withdrawal history"},
		{"s", "Watch board"}, {"b", "Builder authorization"},
	} {
		c.Press(k.key)
		c.Until(k.title+" in the top bar", func(v string) bool { return strings.Contains(bar(v), k.title) })
		c.Press("esc")
		c.Until("home again", func(v string) bool { return strings.Contains(bar(v), "Home") })
	}
	c.Press("L")
	c.Until("the login screen", func(v string) bool { return strings.Contains(bar(v), "Log in") })
}

// TestConsoleMakersFollowAndResume: the status maker Console hands the
// withdrawal review follows the user's own withdrawal and journals its
// states; the resume maker re-sends a journaled request that never got an
// answer, once, and follows it.
func TestConsoleMakersFollowAndResume(t *testing.T) {
	r := screentest.NewStatusRig(t)
	Console(r.App)
	timers := screentest.RecordTimers(r.App)
	id := r.Made(sandbox.DestCompleted, "25")
	r.Clock.Advance(sandbox.DefaultSettle)
	s := r.App.Makers.Status(r.App, id)
	screentest.Drive(s, s.Init())
	if got := r.JournalStates(id); !slices.Contains(got, exchange.StateCompleted) {
		t.Errorf("the followed withdrawal %s journaled %v, not its COMPLETED", id, got)
	}
	req, in := r.Signed(r.App.Client(), sandbox.DemoPrivateKey, sandbox.DestCompleted, "25")
	*timers = nil
	before := len(r.WithdrawBodies())
	s = r.App.Makers.Resume(r.App, r.Intent(req, in))
	screentest.Drive(s, s.Init())
	if n := len(r.WithdrawBodies()) - before; n != 1 || s.Title() != "Withdrawal SUBMITTED" || len(*timers) != 1 {
		t.Fatalf("resume: %d withdraw requests, %q, %d timers; want the journaled one re-sent once and followed", n, s.Title(), len(*timers))
	}
}

// TestConsoleHandsEveryMaker: no maker is left out, so no key of the console
// reaches a missing constructor.
func TestConsoleHandsEveryMaker(t *testing.T) {
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
	m := reflect.ValueOf(c.App.Makers)
	for i := range m.NumField() {
		if m.Field(i).IsNil() {
			t.Errorf("Console hands no %s maker", m.Type().Field(i).Name)
		}
	}
}

// TestKeptSessionOpensOnHome: a client that holds a session kept between
// runs (svcwallet auth login) opens the console on Home, not the login.
func TestKeptSessionOpensOnHome(t *testing.T) {
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
	c2 := screentest.NewConsole(t, 120, 40, screentest.ConsoleOpts{Start: func(app *kit.App) tui.Screen {
		screentest.LogIn(t, app)
		app.Target.Kept = true
		return Console(app)
	}})
	bar := func(v string) string { b, _, _ := strings.Cut(v, "\n"); return b }
	c2.Until("Home in the top bar", func(v string) bool { return strings.Contains(bar(v), "Home") })
	c.Until("the login without a session", func(v string) bool { return strings.Contains(bar(v), "Log in") })
}

// TestFirstFrameIsTheLoginAsBubbleTeaDrawsIt: the frame the console draws
// itself before Bubble Tea starts (tui.Model.FirstFrame) is the one Bubble
// Tea draws after the first screen's Init and the terminal's size, so the
// login does not change under the user's eyes a tick later, and Bubble
// Tea's Init then gets the commands of the Init already run.
func TestFirstFrameIsTheLoginAsBubbleTeaDrawsIt(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 20}} {
		c := newConsole(t, size[0], size[1], screentest.ConsoleOpts{})
		first := tui.New(Console(c.App), tui.Options{Theme: "dark", Common: c.App.Common})
		if got, want := first.FirstFrame(size[0], size[1]), c.View(); got != want {
			t.Errorf("at %dx%d the first frame drawn before Bubble Tea starts is\n%s\nand Bubble Tea's\n%s", size[0], size[1], ansi.Strip(got), ansi.Strip(want))
		}
	}
}
