package screens

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/deposit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/screens/withdraw"
)

// TestListEscClearsFilterFirst (issue 21 bug 5): on the deposit list and
// the route picker, / and text then esc clears the filter and stays; only
// an esc with no filter goes back (History and the board: in status).
func TestListEscClearsFilterFirst(t *testing.T) {
	for _, open := range []struct {
		name  string
		start func(c *screentest.Console)
	}{
		{"deposit", func(c *screentest.Console) { c.Open(deposit.New(c.App)); c.UntilShows("CHAIN ID", "SOLANA") }},
		{"route", func(c *screentest.Console) { c.Open(withdraw.New(c.App)); c.UntilShows("DESTINATION", "SOLANA") }},
	} {
		t.Run(open.name, func(t *testing.T) {
			c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
			open.start(c)
			screentest.RequireEscClearsFilterFirst(t, c.Root, func(m tea.Msg) { c.Send(m) }, "sol")
		})
	}
}
