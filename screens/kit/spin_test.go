package kit_test

import (
	"testing"

	"charm.land/bubbles/v2/spinner"

	"github.com/svcwallet/svcwallet/screens/kit"
)

// TestSpinWhileTurnsOnlyWhileBusy: a tick while busy turns the spinner and
// asks for the next; one while idle is dropped, so the ticking ends.
func TestSpinWhileTurnsOnlyWhileBusy(t *testing.T) {
	s := spinner.New(spinner.WithSpinner(spinner.Dot))
	first := s.View()
	tick, ok := s.Tick().(spinner.TickMsg)
	if !ok {
		t.Fatal("the spinner's Tick is no TickMsg")
	}
	if cmd := kit.SpinWhile(&s, tick, false); cmd != nil || s.View() != first {
		t.Errorf("an idle tick turned the spinner (%q, was %q) or asked for another", s.View(), first)
	}
	if cmd := kit.SpinWhile(&s, tick, true); cmd == nil || s.View() == first {
		t.Errorf("a busy tick did not turn the spinner (%q) or asked for no other", s.View())
	}
}
