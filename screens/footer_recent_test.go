package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestRecentDestinationsKeyInTheFooterAt60: a second withdrawal's form
// says "Recent destinations on ARBITRUM (ctrl+r)", and at 60 columns its
// footer names ctrl+r too, as the form without recent ones does the book's.
func TestRecentDestinationsKeyInTheFooterAt60(t *testing.T) {
	c := newConsole(t, 80, 24, screentest.ConsoleOpts{})
	if err := c.App.Target.Journal.Append(journal.Entry{Time: screentest.Now, Kind: journal.KindIntent, QuoteID: "q-earlier",
		Env: config.SandboxEnv, AccountID: sandbox.DemoAccountID,
		Intent: &journal.Intent{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM"}}); err != nil {
		t.Fatal(err)
	}
	c.LoginAPIKey(sandbox.DemoAPIKey)
	c.Send(tea.WindowSizeMsg{Width: 60, Height: 20})
	c.Press("w")
	c.UntilShows("DESTINATION", "ARBITRUM")
	c.Press("enter")
	c.UntilShows("Recent destinations on ARBITRUM (ctrl+r)")
	lines := strings.Split(strings.TrimRight(c.Plain(), "\n"), "\n")
	if footer := lines[len(lines)-1]; !strings.Contains(footer, "ctrl+r") {
		t.Errorf("the footer leaves out the body's ctrl+r: %q", footer)
	}
}
