package screens

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"svcwallet/service/sandbox"
)

// The benchmarks draw whole frames through the root at 120x40: what the
// terminal gets each time something changes. Bars: 200 µs a frame, 1 ms for
// the deposit list with 1,000 chains.

func benchFrame(b *testing.B, c *console) {
	b.Helper()
	c.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = c.root.View()
	}
}

func BenchmarkViewLogin(b *testing.B) {
	benchFrame(b, newConsole(b, 120, 40, consoleOpts{}))
}

func BenchmarkViewHome(b *testing.B) {
	c := newConsole(b, 120, 40, consoleOpts{})
	c.loginAPIKey(sandbox.DemoAPIKey)
	benchFrame(b, c)
}

func BenchmarkViewDeposit(b *testing.B) {
	c := newConsole(b, 120, 40, consoleOpts{})
	c.loginAPIKey(sandbox.DemoAPIKey)
	c.openDeposit()
	benchFrame(b, c)
}

func BenchmarkViewDepositQR(b *testing.B) {
	c := newConsole(b, 120, 40, consoleOpts{})
	c.loginAPIKey(sandbox.DemoAPIKey)
	c.openDeposit()
	c.generateSolana()
	c.press("enter")
	benchFrame(b, c)
}

// BenchmarkViewDeposit1000 lists 1,007 chains (the sandbox seeded with
// 1,000 more), loaded once through the client, the cursor in the middle.
func BenchmarkViewDeposit1000(b *testing.B) {
	c := newConsole(b, 120, 40, consoleOpts{sandbox: sandbox.Options{ExtraChains: 1000}})
	c.loginAPIKey(sandbox.DemoAPIKey)
	c.press("d")
	c.untilShows("of 1007 chains")
	for range 503 {
		c.press("down")
	}
	benchFrame(b, c)
}
