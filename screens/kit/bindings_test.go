package kit_test

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// TestBindingsOfferWhatActs: a binding that does not act now is neither in
// the footer nor run; its off answer, when it has one, runs instead; one
// without help acts but is not listed.
func TestBindingsOfferWhatActs(t *testing.T) {
	var ran []string
	run := func(name string) func() tea.Cmd { return func() tea.Cmd { ran = append(ran, name); return nil } }
	bs := kit.Bindings{
		{Key: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "acts")), On: true, Do: run("a")},
		{Key: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "idle")), On: false, Do: run("b")},
		{Key: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "says why")), On: false, Do: run("c"), Off: run("c-off")},
		{Key: key.NewBinding(key.WithKeys("d")), On: true, Do: run("d")},
	}
	km := bs.KeyMap()
	if len(km.ShortHelp()) != 1 || km.ShortHelp()[0].Help().Key != "a" {
		t.Fatalf("footer %v, want only a", km.ShortHelp())
	}
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		_, ok := bs.Handle(screentest.Key(k))
		if want := k != "b" && k != "e"; ok != want {
			t.Errorf("%s handled %v, want %v", k, ok, want)
		}
	}
	if want := []string{"a", "c-off", "d"}; len(ran) != 3 || ran[0] != want[0] || ran[1] != want[1] || ran[2] != want[2] {
		t.Fatalf("ran %v, want %v", ran, want)
	}
}
