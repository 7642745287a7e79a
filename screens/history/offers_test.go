package history

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
)

// TestHistoryOffersEnterOnceARowIsSelectable: History's title and its
// "Reading the journal…" come before its rows, and until a row is
// selectable neither the footer nor the screen names enter (nor the keys
// of a selected row: c, w); once the rows are read enter is offered and
// opens the one selected. A key hint is a promise: an enter pressed on the
// title alone opens nothing, so it must not be named then.
func TestHistoryOffersEnterOnceARowIsSelectable(t *testing.T) {
	r, opened := historyRig(t)
	screentest.HistoryEntries(t, r)
	h := New(r.App).(*historyScreen)
	h.SetSize(100, 30)
	read := h.Init()
	acts := func(k string) bool { return screentest.Offers(h.KeyMap(), k) }
	for _, k := range []string{"enter", "c", "w"} {
		if acts(k) {
			t.Errorf("before the journal is read the footer offers %s:\n%s", k, h.View())
		}
	}
	screentest.RequireNamedKeysAct(t, "reading", h.View(), acts)
	h.Update(read())
	if !acts("enter") {
		t.Fatalf("the rows are read and enter is not offered:\n%s", h.View())
	}
	screentest.RequireNamedKeysAct(t, "read", h.View(), acts)
	_, cmd := h.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	pushed(t, r, cmd)
	if len(*opened) != 1 || (*opened)[0] != "resume q-unanswered" {
		t.Errorf("enter opened %v, want the selected unanswered withdrawal", *opened)
	}
}
