package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapKeepsIDsWhole: text wrapped for a toast or a screen breaks at
// spaces, never after the hyphen of a quote id, so the id can still be
// read and searched for; every line stays within the width.
func TestWrapKeepsIDsWhole(t *testing.T) {
	const id = "q-el3736ed2yia3az3z7a7o3aiyk"
	text := "payout hash 4JXTjV…vSnz is q-vegtokke6ipx3nwmbf7boxtg3y; payout hash 0x18dd…5239 is " + id
	for w := 30; w <= 80; w++ {
		got := Wrap(text, w)
		if !strings.Contains(got, id) || strings.ReplaceAll(got, "\n", " ") != text {
			t.Errorf("at %d columns the id is broken, or the words changed:\n%s", w, got)
		}
		for _, l := range strings.Split(got, "\n") {
			if ansi.StringWidth(l) > w {
				t.Errorf("at %d columns a line is %d wide: %q", w, ansi.StringWidth(l), l)
			}
		}
	}
}
