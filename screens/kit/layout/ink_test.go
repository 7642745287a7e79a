package layout_test

import (
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/theme"
	"github.com/svcwallet/svcwallet/tui"
)

// TestInksMatchRender: an ink draws exactly what its style's Render draws,
// on both themes, for the kinds of text screens give it.
func TestInksMatchRender(t *testing.T) {
	for _, dark := range []bool{false, true} {
		st := theme.New(dark)
		k := layout.InksFor(&tui.Common{Styles: st})
		for name, pair := range map[string]struct {
			ink   layout.Ink
			style lipgloss.Style
		}{
			"heading": {k.Heading, st.Heading}, "label": {k.Label, st.Label}, "value": {k.Value, st.Value},
			"bold": {k.Bold, st.Value.Bold(true)}, "muted": {k.Muted, st.Muted}, "warning": {k.Warning, st.Warning},
			"selected": {k.Selected, st.Selected}, "cursor": {k.Cursor, st.Cursor},
		} {
			for _, s := range []string{"", "x", "0xce41aEDdDd1D9d5Ff1962dCe19F97cC60e3d1D7B", "  SOLANA   solana   not provisioned  ", "› ", "1–38 of 1007 chains"} {
				if got, want := pair.ink.On(s), pair.style.Render(s); got != want {
					t.Errorf("dark=%v %s: ink %q, Render %q", dark, name, got, want)
				}
			}
		}
	}
}

// TestSurelyFits: the cheap bound never says a line fits when it does not.
func TestSurelyFits(t *testing.T) {
	st := theme.New(true)
	for _, l := range []string{
		"", "abc", "界界界", st.Value.Render("0xce41aEDdDd1D9d5Ff1962dCe19F97cC60e3d1D7B"),
		"\x1b]8;;http://x\x07link\x1b]8;;\x07", "▀▄█ ▀▄█", "e\u0301e\u0301", "👩‍👩‍👧",
	} {
		for w := 0; w < 100; w++ {
			if layout.SurelyFits(l, w) && ansi.StringWidth(l) > w {
				t.Errorf("surelyFits(%q, %d) but it is %d wide", l, w, ansi.StringWidth(l))
			}
		}
	}
	if !layout.SurelyFits(st.Value.Render("0xce41aEDdDd1D9d5Ff1962dCe19F97cC60e3d1D7B"), 84) {
		t.Error("a styled address does not surely fit in twice its length")
	}
}

func TestWidthShortcut(t *testing.T) {
	for _, s := range []string{"", "abc", "0xce41aEDdDd1D9d5Ff1962dCe19F97cC60e3d1D7B", "界", "a\tb", "\x1b[1mx\x1b[m", "…"} {
		if got, want := layout.Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("width(%q) = %d, want %d", s, got, want)
		}
		for w := 0; w < 6; w++ {
			if got, want := layout.Truncate(s, w, "…"), ansi.Truncate(s, w, "…"); ansi.StringWidth(s) > w && got != want {
				t.Errorf("truncate(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
	}
}
