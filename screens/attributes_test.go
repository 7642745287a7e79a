package screens

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// withoutColour are the terminals that show no colour: NO_COLOR (bold,
// underline and reverse video still show) and TERM=dumb (nothing but the
// characters).
var withoutColour = []struct {
	name    string
	profile colorprofile.Profile
}{{"no_color", colorprofile.ASCII}, {"dumb", colorprofile.NoTTY}}

// TestGoldenWithoutColour (issue 29 item 2) draws the login (API key, and
// the wallet with its key source), the deposit QR code and the withdrawal
// review as a terminal without colour shows them: the NO_COLOR goldens
// keep the attributes' escapes, the TERM=dumb ones are the bare text, in
// which every choice and focus must still read (TestSelectionReadsWithoutAttributes).
func TestGoldenWithoutColour(t *testing.T) {
	for _, name := range []string{"login_apikey", "login_wallet_error", "deposit_qr", "withdraw_review"} {
		st := stateNamed(t, name)
		for _, p := range withoutColour {
			t.Run(name+"/"+p.name, func(t *testing.T) {
				c := newConsole(t, 120, 40, screentest.ConsoleOpts{Profile: p.profile})
				st.reach(c)
				for _, sz := range screentest.GoldenSizes {
					c.Send(tea.WindowSizeMsg{Width: sz.W, Height: sz.H})
					frame := screentest.OnTerminal(scrubIDs(screentest.CheckFrame(t, c.View(), sz.W, sz.H)), p.profile)
					if strings.Contains(frame, "\x1b[") && p.profile == colorprofile.NoTTY || strings.Contains(frame, "38;") || strings.Contains(frame, "48;") {
						t.Errorf("%s: the frame carries what the terminal cannot show: %q", p.name, frame)
					}
					t.Run(fmt.Sprintf("%dx%d", sz.W, sz.H), func(t *testing.T) { golden.RequireEqual(t, []byte(frame)) })
				}
			})
		}
	}
}

func stateNamed(t *testing.T, name string) consoleState {
	t.Helper()
	for _, st := range consoleStates {
		if st.name == name {
			return st
		}
	}
	t.Fatalf("no console state %q", name)
	return consoleState{}
}

// TestSelectionReadsWithoutAttributes (issue 29 item 2): under TERM=dumb
// the terminal shows the characters only, and in them every choice, focus
// and cursor reads: the login's method and key source, the focused field
// and its text cursor, home's menu, the route's source and payout tokens
// and its chain, the board's id field, the deposit list's chain.
func TestSelectionReadsWithoutAttributes(t *testing.T) {
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{Profile: colorprofile.NoTTY})
	shows := func(where string, lines ...string) {
		t.Helper()
		frame := screentest.OnTerminal(c.View(), colorprofile.NoTTY)
		for _, l := range lines {
			if !strings.Contains(frame, l) {
				t.Fatalf("%s: no %q in:\n%s", where, l, frame)
			}
		}
	}
	shows("login", "  Method           (•) API key   ( ) Wallet signature\n", "› API key          ▏paste your API key")
	c.Press("shift+tab", "right")
	shows("wallet chosen", "› Method           ( ) API key   (•) Wallet signature   ←/→")
	c.Press("tab")
	frame := c.Plain()
	_, source, _ := strings.Cut(frame, "› Key source")
	source, _, _ = strings.Cut(source, "\n")
	if strings.Count(source, "(•)") != 1 || strings.Count(source, "( )") != 2 {
		t.Fatalf("the key sources do not show which is chosen: %q\n%s", source, frame)
	}
	c.Press("shift+tab", "left", "tab")
	c.LoginAPIKey(sandbox.DemoAPIKey)
	shows("home", "› d  Deposit addresses", "\n  w  Withdraw USDT")
	c.Press("down")
	shows("home, down", "\n  d  Deposit addresses", "› w  Withdraw USDT")
	c.Press("enter")
	c.UntilShows("DESTINATION", "ARBITRUM")
	shows("route", "Source token   (•) USDT   ( ) USDC", "› ARBITRUM       42161      evm      (•) USDT  ( ) USDC")
	c.Press("right")
	shows("route, payout USDC", "› ARBITRUM       42161      evm      ( ) USDT  (•) USDC")
	c.Press("esc", "s")
	c.UntilShows("› Ids ")
	shows("board", "› Ids         ▏quote ids, payout hashes")
	c.Press("esc")
	c.OpenDeposit()
	shows("deposits", "› ARBITRUM       42161")
}
