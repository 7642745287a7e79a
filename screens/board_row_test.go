package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/board"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/screens/status"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBoardRowTakesTheNextID (issue 35 item 5): on the board, paste an id
// and press enter (its row opens in the status screen), then type the next
// quote id there, as support staff do: its q never quits; enter takes it
// back to the board, which adds it. A paste there goes back the same way.
// The footer offers ctrl+c to quit, not q.
func TestBoardRowTakesTheNextID(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	c.App.Makers.BoardStatus = status.NewBoardStatus
	seed := func() string {
		id, err := c.Srv.Exchange.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	first, second, third := seed(), seed(), seed()
	c.Open(board.New(c.App))
	c.UntilShows("Watch board")
	c.Send(tea.PasteMsg{Content: first})
	c.UntilShows(first, "SUBMITTED")
	c.Press("enter")
	c.UntilShows("Quote id", "Timeline")
	if v := c.Plain(); !strings.Contains(v, "ctrl+c quit") || strings.Contains(v, "q quit") {
		t.Fatalf("the row's footer offers q to quit:\n%s", v)
	}
	for _, r := range second {
		_, cmd := c.Root.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		if screentest.Quits(cmd) {
			t.Fatalf("typing %q of the next quote id quit the console", r)
		}
	}
	c.UntilShows("Next id", second)
	c.Press("enter")
	c.UntilShows("Watch board", first, second)
	c.Press("enter") // the row under the cursor opens again
	c.UntilShows("Quote id", "Timeline")
	_, cmd := c.Root.Update(tea.PasteMsg{Content: third})
	for _, m := range screentest.SequenceMsgs(t, cmd) { // back to the board, with the id
		if _, ok := m.(tea.QuitMsg); ok {
			t.Fatal("pasting the next quote id quit the console")
		}
		c.Send(m)
	}
	c.UntilShows("Watch board", third)
}

// TestBoardListTakesTheNextID (issue 35 item 5): on the board's list,
// typing the next quote id as support staff do (q-…, enter) never quits:
// its q starts the id field with the q in it, enter adds the id, and the
// footer offers ctrl+c to quit, not q.
func TestBoardListTakesTheNextID(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	first, err := c.Srv.Exchange.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Srv.Exchange.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	c.Open(board.New(c.App))
	c.UntilShows("Watch board")
	c.Send(tea.PasteMsg{Content: first})
	c.UntilShows(first, "SUBMITTED", "enter details")
	if v := c.Plain(); !strings.Contains(v, "ctrl+c quit") || strings.Contains(v, "q quit") {
		t.Fatalf("the board's footer offers q to quit:\n%s", v)
	}
	for _, r := range second {
		_, cmd := c.Root.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		if screentest.Quits(cmd) {
			t.Fatalf("typing %q of the next quote id on the board quit the console", r)
		}
	}
	c.UntilShows("Quote ids   " + second)
	c.Press("enter")
	c.UntilShows(first, second, "2 withdrawals")
}
