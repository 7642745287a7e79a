package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestPasteTypesNoKeysIntoTheForm: an address pasted into the destination
// form carries an end marker and "\t25\r\r", which the terminal's parser
// (see tui's hostilePaste) hands on as these messages. The
// amount stays empty, no quote is asked for, and an enter within
// tui.PasteGuard is refused; once the fake clock is past it, the user's
// own keys fill the amount and get the quote.
func TestPasteTypesNoKeysIntoTheForm(t *testing.T) {
	clock := exchangetest.NewFakeClock(screentest.Now)
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{Clock: clock.Now})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	c.Press("w")
	c.UntilShows("DESTINATION", "ARBITRUM")
	c.Press("enter")
	c.UntilShows("Withdraw: destination")

	for _, msg := range []tea.Msg{
		tea.PasteStartMsg{}, tea.PasteMsg{Content: sandbox.DestCompleted}, tea.PasteEndMsg{},
		tea.KeyPressMsg{Code: tea.KeyTab},
		tea.KeyPressMsg{Code: '2', Text: "2"}, tea.KeyPressMsg{Code: '5', Text: "5"},
		tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyEnter},
		tea.PasteMsg{Content: ""}, tea.PasteEndMsg{},
	} {
		c.Send(msg)
	}
	c.UntilSays("came with a paste")
	requireUnsubmitted := func(when string) {
		t.Helper()
		// The focus stays on the destination, the amount shows its placeholder.
		v := c.Plain()
		if !strings.Contains(v, "Withdraw: destination") || !strings.Contains(v, "› Destination    "+sandbox.DestCompleted) ||
			strings.TrimSpace(screentest.LineAfter(v, "✓ valid EVM address")) != "Amount USDT    e.g. 25 or 25.5" {
			t.Fatalf("%s: the form changed or was submitted:\n%s", when, v)
		}
	}
	requireUnsubmitted("after the paste")

	clock.Advance(tui.PasteGuard / 2)
	c.Press("enter")
	requireUnsubmitted("an enter within the guard")

	clock.Advance(tui.PasteGuard)
	c.Press("tab")
	c.TypeText("25")
	c.Press("enter")
	c.UntilShows("Expires in")
}
