package withdraw

import (
	"context"
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
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
	r := New(app).(*routeScreen)
	load := r.load()
	r.Leave()
	if err := infoOf(load); !errors.Is(err, context.Canceled) {
		t.Fatalf("call of a left screen: %v, want cancelled", err)
	}
	if err := infoOf(New(app).(*routeScreen).load()); err != nil {
		t.Fatalf("a new visit: %v", err)
	}
	root, quit := context.WithCancel(context.Background())
	app.Context = root
	load = New(app).(*routeScreen).load()
	quit()
	if err := infoOf(load); !errors.Is(err, context.Canceled) {
		t.Fatalf("call after quit: %v, want cancelled", err)
	}
}

// TestMoneyCallsOutliveTheirScreen: the review that sends a withdrawal
// hears no Leave, so leaving it cannot cancel a call whose answer must be
// journaled (the status screen's re-send runs under context.Background for
// the same reason).
func TestMoneyCallsOutliveTheirScreen(t *testing.T) {
	if _, ok := tui.Screen(&reviewScreen{}).(tui.Leaver); ok {
		t.Error("the withdrawal review cancels its calls when left")
	}
}
