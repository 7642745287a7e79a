package screens

import (
	"slices"
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
	timers := screentest.RecordTimers(c.App)
	ids := seedIDs(t, c, 3)
	first, second, third := ids[0], ids[1], ids[2]
	c.Open(board.New(c.App))
	c.UntilShows("Watch board")
	c.Send(tea.PasteMsg{Content: first})
	c.UntilShowsFiring(timers, first, "SUBMITTED")
	c.Press("enter")
	c.UntilShows("Quote id", "Timeline")
	typeWithoutQuitting(t, c, second, "a row's status screen")
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
	timers := screentest.RecordTimers(c.App)
	ids := seedIDs(t, c, 2)
	first, second := ids[0], ids[1]
	c.Open(board.New(c.App))
	c.UntilShows("Watch board")
	c.Send(tea.PasteMsg{Content: first})
	c.UntilShowsFiring(timers, first, "SUBMITTED", "enter details")
	typeWithoutQuitting(t, c, second, "the board")
	c.UntilShows("Ids         " + second)
	c.Press("enter")
	c.UntilShows(first, second, "2 withdrawals")
}

// seedIDs seeds n withdrawals that complete and returns their quote ids.
func seedIDs(t *testing.T, c *screentest.Console, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		id, err := c.Srv.Exchange.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}

// typeWithoutQuitting types id a key at a time under the root, as support
// staff type the next quote id where, after checking that the footer
// offers ctrl+c to quit, not q; no key may quit.
func typeWithoutQuitting(t *testing.T, c *screentest.Console, id, where string) {
	t.Helper()
	if v := c.Plain(); !strings.Contains(v, "ctrl+c quit") || strings.Contains(v, "q quit") {
		t.Fatalf("the footer of %s offers q to quit:\n%s", where, v)
	}
	for _, r := range id {
		if _, cmd := c.Root.Update(tea.KeyPressMsg{Code: r, Text: string(r)}); screentest.Quits(cmd) {
			t.Fatalf("typing %q of the next quote id on %s quit the console", r, where)
		}
	}
}

// TestBoardRowNamesOnlyKeysThatAct: a row's status screen whose id the
// service does not know says to press r, which asks again; once the next
// id is being typed there, r is a letter of it and is named no more.
func TestBoardRowNamesOnlyKeysThatAct(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	c.App.Makers.BoardStatus = status.NewBoardStatus
	timers := screentest.RecordTimers(c.App)
	c.Open(board.New(c.App))
	c.UntilShows("Watch board")
	c.Send(tea.PasteMsg{Content: "q-nosuchquote-0001"})
	c.UntilShowsFiring(timers, "q-nosuchquote-0001", "NOT FOUND")
	c.Press("enter")
	c.UntilShows("Polling stopped")
	for _, when := range []string{"read", "typing the next id"} {
		frame := c.Plain()
		if keys := screentest.NamedKeys(frame); when == "read" && !slices.Contains(keys, "r") {
			t.Fatalf("%s: names %v, not r:\n%s", when, keys, frame)
		}
		screentest.RequireNamedKeysAct(t, when, frame, func(k string) bool { return screentest.FooterOffers(frame, k) })
		c.Press("q")
		c.UntilShows("Next id")
	}
}
