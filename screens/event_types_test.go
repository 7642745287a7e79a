package screens

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestKeysActWithEventTypes: asking for the kitty keyboard protocol's
// event types for every key (tui.KeyboardAsked) changes no key: a terminal
// that speaks it writes each key as CSI u (a letter with its text), a
// release after it, and shift pressed alone before shift+tab, and each
// binding acts as it does on a terminal that does not (the releases and
// the lone shift doing nothing); q still quits.
func TestKeysActWithEventTypes(t *testing.T) {
	c := screentest.NewConsole(t, 120, 40, screentest.ConsoleOpts{Start: Console})
	c.SendSeq("\x1b[100;5u\x1b[100;5:3u\x1b[13u\x1b[13;1:3u") // ctrl+d, enter
	c.UntilShows("Funding address", sandbox.DemoAddress)
	c.SendSeq("\x1b[119;;119u\x1b[119;1:3u")
	c.UntilShows("DESTINATION", "ARBITRUM")
	c.SendSeq("\x1b[13u\x1b[13;1:3u")
	c.UntilShows("Withdraw: destination")
	c.SendSeq("\x1b[114;5u\x1b[114;5:3u") // ctrl+r: the address book
	c.UntilShows(sandbox.DestCompleted)
	before := c.Plain()
	c.SendSeq("\x1b[57441;2u\x1b[9;2u\x1b[9;2:3u\x1b[57441;1:3u") // shift, tab: the focus goes back a field
	if c.Plain() == before {
		t.Fatalf("shift+tab did not move the focus:\n%s", before)
	}
	c.SendSeq("\x1b[27u\x1b[27;1:3u") // esc
	c.UntilShows("DESTINATION", "ARBITRUM")
	c.SendSeq("\x1b[27u\x1b[27;1:3u")
	c.UntilShows("Funding address")
	quits := false
	for _, m := range screentest.Sent("\x1b[113;;113u\x1b[113;1:3u") {
		_, cmd := c.Root.Update(m)
		quits = quits || screentest.Quits(cmd)
	}
	if !quits {
		t.Fatal("q did not quit")
	}
}
