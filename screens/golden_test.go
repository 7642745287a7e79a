package screens

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/signer"
)

// consoleState is a screen in a given state, reached the way a user reaches it.
type consoleState struct {
	name  string
	reach func(c *console)
}

var consoleStates = []consoleState{
	{"login_apikey", func(c *console) {}},
	{"login_wallet_error", func(c *console) {
		// A wallet key from $SVCWALLET_PRIVATE_KEY that no account knows.
		c.env[signer.KeyEnvVar] = strangerKey
		c.press("shift+tab", "right", "tab", "right") // method: wallet; source: the variable
		c.press("enter")
		c.untilShows("Login failed")
	}},
	{"home", func(c *console) { c.loginAPIKey(sandbox.DemoAPIKey) }},
	{"home_subaccount", func(c *console) { c.loginAPIKey(sandbox.TradingAPIKey) }},
	{"deposit_list", func(c *console) {
		c.loginAPIKey(sandbox.DemoAPIKey)
		c.openDeposit()
	}},
	{"deposit_qr", func(c *console) {
		c.loginAPIKey(sandbox.DemoAPIKey)
		c.openDeposit()
		c.generateSolana()
		c.press("enter")
	}},
	{"deposit_nochain", func(c *console) {
		c.loginAPIKey(sandbox.NoChainAPIKey)
		c.press("d")
		c.untilShows("no chain account")
	}},
	{"withdraw_route", func(c *console) {
		c.loginAPIKey(sandbox.DemoAPIKey)
		c.press("w")
		c.untilShows("DESTINATION", "SOLANA")
		c.press("down", "right")
	}},
	{"withdraw_destination", func(c *console) {
		c.loginAPIKey(sandbox.DemoAPIKey)
		c.fillDestination(sandbox.DestCompleted, "25")
	}},
	{"withdraw_lookalike", func(c *console) {
		if err := c.app.Target.Journal.Append(service.JournalEntry{Time: testNow, Kind: service.JournalIntent, QuoteID: "q-earlier",
			Intent: &service.Intent{ToAddress: sandbox.DestCompleted, Chain: "ARBITRUM"}}); err != nil {
			c.t.Fatal(err)
		}
		c.loginAPIKey(sandbox.DemoAPIKey)
		c.fillDestination("0x3c44cddd"+strings.Repeat("0", 24)+"fa4293bc", "25")
		c.untilShows("Recent destinations")
		c.press("enter")
		c.untilShows("looks like one you used before")
	}},
	{"withdraw_quote", func(c *console) {
		c.loginAPIKey(sandbox.DemoAPIKey)
		c.fillDestination(sandbox.DestCompleted, "25")
		c.press("enter")
		c.untilShows("Expires in")
	}},
	{"withdraw_review", func(c *console) {
		c.app.Nonce = func() uint32 { return 1234567 }
		c.loginAPIKey(sandbox.DemoAPIKey)
		c.fillDestination(sandbox.DestCompleted, "25")
		c.press("enter")
		c.untilShows("Expires in")
		c.press("enter")
		c.untilShows("Digest", "Signing key", "demo key", "pinned in config")
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

var goldenSizes = []struct{ w, h int }{{80, 24}, {120, 40}}

// colourGoldens keep their escape codes: the theme's colours are reviewed
// there, the layout in the plain goldens.
var colourGoldens = map[string]bool{"login_wallet_error": true, "deposit_qr": true}

// TestGolden draws every screen through the root model (status bar and
// footer included) at 80x24 and 120x40 on light and dark backgrounds. The
// plain golden is shared by both themes, which must not change the layout.
func TestGolden(t *testing.T) {
	for _, st := range consoleStates {
		t.Run(st.name, func(t *testing.T) {
			plain := map[string]string{}
			for _, theme := range []string{"light", "dark"} {
				c := newConsole(t, 120, 40, consoleOpts{theme: theme})
				st.reach(c)
				for _, sz := range goldenSizes {
					c.send(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
					frame := scrubIDs(checkFrame(t, c.view(), sz.w, sz.h))
					name := fmt.Sprintf("%dx%d", sz.w, sz.h)
					if colourGoldens[st.name] && sz.w == 80 {
						t.Run(name+"_"+theme, func(t *testing.T) { golden.RequireEqual(t, []byte(frame)) })
					}
					p := ansi.Strip(frame)
					if prev, ok := plain[name]; ok && prev != p {
						t.Errorf("%s: light and dark themes lay out differently:\nlight:\n%s\ndark:\n%s", name, prev, p)
					}
					plain[name] = p
				}
			}
			for _, sz := range goldenSizes {
				name := fmt.Sprintf("%dx%d", sz.w, sz.h)
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
			c := newConsole(t, 120, 40, consoleOpts{})
			st.reach(c)
			first := checkFrame(t, c.view(), 120, 40)
			for _, sz := range sizes {
				c.send(tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
				frame := checkFrame(t, c.view(), sz.w, sz.h)
				if sz.w < 60 || sz.h < 20 {
					if !strings.Contains(ansi.Strip(frame), "Terminal too small") {
						t.Errorf("%dx%d: no too-small notice:\n%s", sz.w, sz.h, ansi.Strip(frame))
					}
				}
			}
			if last := c.view(); last != first {
				t.Errorf("back at 120x40 the frame differs:\nbefore:\n%s\nafter:\n%s", ansi.Strip(first), ansi.Strip(last))
			}
		})
	}
}

// checkFrame fails unless frame has exactly h lines of at most w cells.
func checkFrame(t testing.TB, frame string, w, h int) string {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Errorf("%dx%d: frame has %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("%dx%d: line %d is %d cells wide: %q", w, h, i+1, n, ansi.Strip(l))
		}
	}
	return frame
}
