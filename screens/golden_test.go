package screens

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// consoleState is a screen in a given state, reached the way a user reaches it.
type consoleState struct {
	name  string
	reach func(c *screentest.Console)
}

var consoleStates = []consoleState{
	{"login_apikey", func(c *screentest.Console) {}},
	{"login_wallet_error", func(c *screentest.Console) {
		// A wallet key from $SVCWALLET_PRIVATE_KEY that no account knows.
		c.Env[signer.KeyEnvVar] = screentest.StrangerKey
		c.Press("shift+tab", "right", "tab", "right") // method: wallet; source: the variable
		c.Press("enter")
		c.UntilShows("Login failed")
	}},
	{"home", func(c *screentest.Console) { c.LoginAPIKey(sandbox.DemoAPIKey) }},
	{"home_subaccount", func(c *screentest.Console) { c.LoginAPIKey(sandbox.TradingAPIKey) }},
	{"deposit_list", func(c *screentest.Console) {
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.OpenDeposit()
	}},
	{"deposit_qr", func(c *screentest.Console) {
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.OpenDeposit()
		c.GenerateSolana()
		c.Press("enter")
	}},
	{"deposit_nochain", func(c *screentest.Console) {
		c.LoginAPIKey(sandbox.NoChainAPIKey)
		c.Press("d")
		c.UntilShows("no chain account")
	}},
	{"withdraw_route", func(c *screentest.Console) {
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.Press("w")
		c.UntilShows("DESTINATION", "SOLANA")
		c.Press("down", "right")
	}},
	{"withdraw_destination", func(c *screentest.Console) {
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.FillDestination(sandbox.DestCompleted, "25")
	}},
	{"withdraw_lookalike", func(c *screentest.Console) {
		if err := c.App.Target.Journal.Append(journal.Entry{Time: screentest.Now, Kind: journal.KindIntent, QuoteID: "q-earlier",
			Env: config.SandboxEnv, AccountID: sandbox.DemoAccountID,
			Intent: &journal.Intent{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM"}}); err != nil {
			c.T.Fatal(err)
		}
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.FillDestination("0x3c44cddd"+strings.Repeat("0", 24)+"fa4293bc", "25")
		c.UntilShows("Recent destinations")
		c.Press("enter")
		c.UntilShows("looks like one you used before")
	}},
	{"withdraw_quote", func(c *screentest.Console) {
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.FillDestination(sandbox.DestCompleted, "25")
		c.Press("enter")
		c.UntilShows("Expires in")
	}},
	{"withdraw_review", func(c *screentest.Console) {
		c.App.Nonce = func() uint32 { return 1234567 }
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.FillDestination(sandbox.DestCompleted, "25")
		c.Press("enter")
		c.UntilShows("Expires in")
		c.Press("enter")
		c.UntilShows("Digest", "Signing key", "demo key", "pinned")
	}},
}

// randomIDs are the sandbox's random quote and transfer ids; goldens show
// them as x's of the same length.
var randomIDs = regexp.MustCompile(`(q|tx)-[a-z2-7]{26}`)

func scrubIDs(frame string) string {
	return randomIDs.ReplaceAllStringFunc(frame, func(id string) string {
		prefix, rest, _ := strings.Cut(id, "-")
		return prefix + "-" + strings.Repeat("x", len(rest))
	})
}

// colourGoldens keep their escape codes: the theme's colours are reviewed
// there, the layout in the plain goldens.
var colourGoldens = map[string]bool{"login_wallet_error": true, "deposit_qr": true}

// TestGolden draws every screen through the root model (top bar and
// footer included) at 80x24 and 120x40 on light and dark backgrounds. The
// plain golden is shared by both themes, which must not change the layout.
func TestGolden(t *testing.T) {
	for _, st := range consoleStates {
		t.Run(st.name, func(t *testing.T) {
			plain := map[string]string{}
			for _, theme := range []string{"light", "dark"} {
				c := newConsole(t, 120, 40, screentest.ConsoleOpts{Theme: theme})
				st.reach(c)
				for _, sz := range screentest.GoldenSizes {
					c.Send(tea.WindowSizeMsg{Width: sz.W, Height: sz.H})
					frame := scrubIDs(screentest.CheckFrame(t, c.View(), sz.W, sz.H))
					name := fmt.Sprintf("%dx%d", sz.W, sz.H)
					if colourGoldens[st.name] && sz.W == 80 {
						t.Run(name+"_"+theme, func(t *testing.T) { golden.RequireEqual(t, []byte(frame)) })
					}
					p := ansi.Strip(frame)
					if prev, ok := plain[name]; ok && prev != p {
						t.Errorf("%s: light and dark themes lay out differently:\nlight:\n%s\ndark:\n%s", name, prev, p)
					}
					plain[name] = p
				}
			}
			for _, sz := range screentest.GoldenSizes {
				name := fmt.Sprintf("%dx%d", sz.W, sz.H)
				t.Run(name, func(t *testing.T) { golden.RequireEqual(t, []byte(plain[name])) })
			}
		})
	}
}

// TestResize takes every screen from 120x40 down to the minimum, below it,
// and back: no panic, no line wider than the terminal, no more lines than
// it has, and the same frame as before once the size is back.
func TestResize(t *testing.T) {
	sizes := []struct{ w, h int }{{120, 40}, {60, 20}, {59, 19}, {80, 24}, {61, 21}, {200, 60}, {120, 40}}
	for _, st := range consoleStates {
		t.Run(st.name, func(t *testing.T) {
			c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
			st.reach(c)
			first := screentest.CheckFrame(t, c.View(), 120, 40)
			for _, sz := range sizes {
				c.Send(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
				frame := screentest.CheckFrame(t, c.View(), sz.w, sz.h)
				if sz.w < 60 || sz.h < 20 {
					if !strings.Contains(ansi.Strip(frame), "Terminal too small") {
						t.Errorf("%dx%d: no too-small notice:\n%s", sz.w, sz.h, ansi.Strip(frame))
					}
				}
			}
			if last := c.View(); last != first {
				t.Errorf("back at 120x40 the frame differs:\nbefore:\n%s\nafter:\n%s", ansi.Strip(first), ansi.Strip(last))
			}
		})
	}
}
