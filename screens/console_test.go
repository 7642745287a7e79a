package screens

import (
	"reflect"
	"testing"

	"svcwallet/screens/screentest"
)

// newConsole is the whole console, from its login screen, on a fresh
// sandbox: screentest's console started at Console.
func newConsole(t testing.TB, w, h int, o screentest.ConsoleOpts) *screentest.Console {
	o.Start = Console
	return screentest.NewConsole(t, w, h, o)
}

// TestConsoleHandsEveryMaker: every screen one feature opens in another is
// wired, so no key of the console reaches a missing constructor.
func TestConsoleHandsEveryMaker(t *testing.T) {
	c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
	m := reflect.ValueOf(c.App.Makers)
	for i := range m.NumField() {
		if m.Field(i).IsNil() {
			t.Errorf("Console hands no %s maker", m.Type().Field(i).Name)
		}
	}
}
