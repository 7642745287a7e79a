package board

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardTakesARowsID: rows pasted from a spreadsheet (a date, a name,
// the quote id, an amount) put each row's quote id on the board, never its
// date or amount (2026-11-30 and 1000.000000 were followed as quote ids);
// a row of two different ids adds neither, saying its line and columns.
func TestBoardTakesARowsID(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	other := screentest.Seed(t, r, sandbox.DestCompleted)
	br.send(tea.PasteMsg{Content: "2026-11-30\tACME\t" + done + "\t1000.000000\r\n2026-11-30\t" + done + "\t" + other + "\t25.00\r\n"})
	if ids := boardIDs(br.b); len(ids) != 1 || ids[0] != done {
		t.Errorf("the board follows %q after two rows pasted:\n%s", ids, br.plain())
	}
	if v := screentest.OneLine(br.b.View()); !strings.Contains(v, "line 2 holds 2 different ids, in columns 2 and 3") {
		t.Errorf("the row of two ids not said:\n%s", br.plain())
	}
}

// TestBoardSaysIDsAlreadyOn: a paste whose ids are all on the board
// already says so: a support desk pasting its column again saw nothing
// happen, nothing added and nothing said.
func TestBoardSaysIDsAlreadyOn(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	br.run(br.b.addText(done))
	br.toasts = nil
	br.run(br.b.addText(done + "\n" + done))
	if want := "Already on the board: " + done + "; nothing added"; len(br.toasts) != 1 || br.toasts[0] != want {
		t.Errorf("a paste of an id on the board said %q, want %q", br.toasts, want)
	}
	other := screentest.Seed(t, r, sandbox.DestCompleted)
	br.toasts = nil
	br.run(br.b.addText(done + "\n" + other + "\n" + done))
	if len(br.toasts) != 0 || br.b.rows[other] == nil {
		t.Errorf("a paste adding one of two said %q (on the board: %t)", br.toasts, br.b.rows[other] != nil)
	}
	br.toasts = nil
	br.run(br.b.addText(done + " " + other))
	if want := "Already on the board: all 2 withdrawals; nothing added"; len(br.toasts) != 1 || br.toasts[0] != want {
		t.Errorf("a paste of 2 ids on the board said %q, want %q", br.toasts, want)
	}
}
