package screens

import (
	"testing"

	"svcwallet/screens/screentest"
)

// newConsole is the whole console, from its login screen, on a fresh
// sandbox: screentest's console started at Console.
func newConsole(t testing.TB, w, h int, o screentest.ConsoleOpts) *screentest.Console {
	o.Start = Console
	return screentest.NewConsole(t, w, h, o)
}
