package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestDepositOnTheEmbeddedSandboxSaysNothingReal: the embedded sandbox
// (the environment svcwallet falls back to with no config) lists addresses
// valid on the real chains, whose key no one holds. Wherever the deposit
// screen shows one (listed, in the detail, drawn as a QR code below the
// list or alone, copied, generated) it says that it receives nothing
// real, as deposit and plain mode do, at every size.
func TestDepositOnTheEmbeddedSandboxSaysNothingReal(t *testing.T) {
	const addr = "0xD20300C35aA29C7b0498bA5739272D3A2F8B76c1"
	for _, size := range []struct {
		w, h int
		qr   bool // enter draws the code at this size
	}{{120, 40, true}, {80, 24, true}, {60, 20, false}} {
		c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
		c.LoginAPIKey(sandbox.DemoAPIKey)
		c.OpenDeposit()
		c.Send(tea.WindowSizeMsg{Width: size.w, Height: size.h})
		c.UntilShows("ARBITRUM", addr, "Embedded sandbox: its addresses receive nothing real")
		if size.qr {
			c.Press("enter")
			c.UntilShows(addr, "hide QR", "embedded sandbox: this address", "nothing real")
		} else if v := c.Plain(); strings.Contains(v, "QR code") {
			t.Errorf("%dx%d: enter is offered for a code that does not fit with its words:\n%s", size.w, size.h, v)
		}
		c.Press("c")
		c.UntilShows("Copied ARBITRUM address")
		if v := strings.Join(strings.Fields(c.Plain()), " "); !strings.Contains(v, "(embedded sandbox: this address receives nothing real)") {
			t.Errorf("%dx%d: copied with no word that it receives nothing real:\n%s", size.w, size.h, c.Plain())
		}
	}
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	c.OpenDeposit()
	c.Press("end", "g")
	c.UntilShows("SOLANA deposit address ready")
	if v := strings.Join(strings.Fields(c.Plain()), " "); !strings.Contains(v, "ready: "+c.SolanaAddress()+" (embedded sandbox: this address receives nothing real)") {
		t.Errorf("generated with no word that it receives nothing real:\n%s", c.Plain())
	}
}

// TestDepositQRNeverDrawnWithoutTheSandboxWords: where the sandbox's words
// do not fit beside the code they go under it, and a screen without the
// line for them draws no code (the notice says what it lacks): at no size
// is the code drawn without them.
func TestDepositQRNeverDrawnWithoutTheSandboxWords(t *testing.T) {
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	c.OpenDeposit()
	c.Press("enter")
	c.UntilShows("hide QR")
	for w := 44; w <= 70; w += 2 {
		for h := 18; h <= 30; h++ {
			c.Send(tea.WindowSizeMsg{Width: w, Height: h})
			v := c.Plain()
			if strings.Contains(v, "█") && !strings.Contains(v, "embedded sandbox: this") {
				t.Fatalf("%dx%d: the code is drawn without the sandbox's words:\n%s", w, h, v)
			}
		}
	}
}
