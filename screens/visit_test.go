package screens

import (
	"context"
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestLeavingCancelsReadOnlyCalls: a screen's read-only call still out when
// the screen is left is cancelled, and so is every call once the console's
// root context ends; a new visit calls again.
func TestLeavingCancelsReadOnlyCalls(t *testing.T) {
	app, _ := wdApp(t)
	infoOf := func(cmd tea.Cmd) error {
		for _, m := range runAll(cmd) {
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
