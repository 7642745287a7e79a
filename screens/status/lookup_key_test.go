package status

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/tui"
)

// TestNextIDClearsAKeyBeforeEnter: a key's shape typed short of 64 digits
// as the next id (a board's row) is cleared, and said, before enter takes
// the field to the board: the field's rule comes before the screen's keys.
// Enter took it as it stood, and the field's clearing never came.
func TestNextIDClearsAKeyBeforeEnter(t *testing.T) {
	rig := screentest.NewStatusRig(t)
	s := newStatus(rig.App, "q-1")
	s.look.board = true
	for _, c := range "0x" + screentest.KeyHex[:62] {
		s.Update(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	if !s.look.on {
		t.Fatal("typing did not start the next id")
	}
	_, cmd := s.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	said := false
	for _, m := range screentest.RunAll(cmd) {
		e, ok := m.(tui.ErrorMsg)
		said = said || ok && e.Err == kit.KeyCleared
	}
	if !said {
		t.Error("enter took the next id without clearing the key's shape it held")
	}
}
