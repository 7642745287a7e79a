package screens

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/screens/home"
	"github.com/svcwallet/svcwallet/screens/login"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// The benchmarks draw whole frames through the root at 120x40: what the
// terminal gets each time something changes. Bars: 200 µs a frame, 1 ms for
// the deposit list with 1,000 chains.

func benchFrame(b *testing.B, c *screentest.Console) {
	b.Helper()
	c.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = c.Root.View()
	}
}

func BenchmarkViewLogin(b *testing.B) {
	benchFrame(b, newConsole(b, 120, 40, screentest.ConsoleOpts{}))
}

func BenchmarkViewHome(b *testing.B) {
	c := newConsole(b, 120, 40, screentest.ConsoleOpts{})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	benchFrame(b, c)
}

func BenchmarkViewDeposit(b *testing.B) {
	c := newConsole(b, 120, 40, screentest.ConsoleOpts{})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	c.OpenDeposit()
	benchFrame(b, c)
}

func BenchmarkViewDepositQR(b *testing.B) {
	c := newConsole(b, 120, 40, screentest.ConsoleOpts{})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	c.OpenDeposit()
	c.GenerateSolana()
	c.Press("enter")
	benchFrame(b, c)
}

// deposit1000Console is the console on the deposit list of 1,007 chains (the
// sandbox seeded with 1,000 more), loaded once, the cursor in the middle.
func deposit1000Console(b *testing.B) *screentest.Console {
	b.Helper()
	c := newConsole(b, 120, 40, screentest.ConsoleOpts{Sandbox: sandbox.Options{ExtraChains: 1000}})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	c.Press("d")
	c.UntilShows("of 1007 chains")
	for range 503 {
		c.Press("down")
	}
	return c
}

// BenchmarkViewDeposit1000 lists 1,007 chains (the sandbox seeded with
// 1,000 more), loaded once through the client, the cursor in the middle.
func BenchmarkViewDeposit1000(b *testing.B) {
	c := deposit1000Console(b)
	benchFrame(b, c)
}

func BenchmarkScreenLogin(b *testing.B) {
	c := newConsole(b, 120, 40, screentest.ConsoleOpts{})
	l := login.New(c.App)
	l.SetSize(120, 38)
	screentest.BenchView(b, l)
}

func BenchmarkScreenHome(b *testing.B) {
	c := newConsole(b, 120, 40, screentest.ConsoleOpts{})
	c.LoginAPIKey(sandbox.DemoAPIKey)
	h := home.New(c.App)
	h.SetSize(120, 38)
	screentest.BenchView(b, h)
}

// BenchmarkScrollDeposit1000 is a key press and the frame after it, the
// cost of scrolling through 1,007 chains.
func BenchmarkScrollDeposit1000(b *testing.B) {
	c := deposit1000Console(b)
	keys := []tea.KeyPressMsg{screentest.Key("down"), screentest.Key("up")}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		c.Root.Update(keys[i%2])
		_ = c.Root.View()
		i++
	}
}
