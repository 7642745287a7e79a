package screens

import (
	"context"
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"

	"svcwallet/screens/screentest"
	"svcwallet/tui"
)

// TestLeavingCancelsReadOnlyCalls: a screen's read-only call still out when
// the screen is left is cancelled, and so is every call once the console's
// root context ends; a new visit calls again.
func TestLeavingCancelsReadOnlyCalls(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	infoOf := func(cmd tea.Cmd) error {
		for _, m := range screentest.RunAll(cmd) {
			if m, ok := m.(withdrawalInfoMsg); ok {
				return m.err
			}
		}
		t.Fatal("no withdrawal info answer")
		return nil
	}
	r := newRoute(app)
	load := r.load()
	r.Leave()
	if err := infoOf(load); !errors.Is(err, context.Canceled) {
		t.Fatalf("call of a left screen: %v, want cancelled", err)
	}
	if err := infoOf(newRoute(app).load()); err != nil {
		t.Fatalf("a new visit: %v", err)
	}
	root, quit := context.WithCancel(context.Background())
	app.Context = root
	load = newRoute(app).load()
	quit()
	if err := infoOf(load); !errors.Is(err, context.Canceled) {
		t.Fatalf("call after quit: %v, want cancelled", err)
	}
}

// TestMoneyCallsOutliveTheirScreen: the screens that send a withdrawal or a
// builder authorization hear no Leave, so leaving them cannot cancel a call
// whose answer must be journaled (the status screen's re-send runs under
// context.Background for the same reason).
func TestMoneyCallsOutliveTheirScreen(t *testing.T) {
	for name, s := range map[string]tui.Screen{"withdrawal review": &reviewScreen{}, "builder review": &builderReviewScreen{}} {
		if _, ok := s.(tui.Leaver); ok {
			t.Errorf("the %s cancels its calls when left", name)
		}
	}
}
