package layout_test

import (
	"math/rand/v2"
	"strings"
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

// TestWidthShortcut: Width and Truncate say what ansi's do, for plain and
// styled text, and for random strings of printable ASCII, escape sequences
// whole, cut or malformed, controls and wide runes.
func TestWidthShortcut(t *testing.T) {
	st := theme.New(true)
	cases := []string{"", "abc", "0xce41aEDdDd1D9d5Ff1962dCe19F97cC60e3d1D7B", "界", "a\tb", "\x1b[1mx\x1b[m", "…",
		st.Value.Render("0xce41aEDdDd1D9d5Ff1962dCe19F97cC60e3d1D7B"), st.Danger.Render("25 USDT") + st.Muted.Render("  what you pay"),
		"\x1b[", "\x1b[1", "x\x1b[1;2", "\x1b[?25lx", "\x1b[ qx", "\x1b[1 2mx", "\x1b[1\x7fmx", "\x1b[1\nmx", "\x1bxm", "\x1b]8;;u\x07l\x1b]8;;\x07"}
	pieces := []string{"a", "Z", " ", "~", "\x1b", "[", "]", "1", ";", ":", "?", " ", "!", "m", "@", "\x7f", "\x07", "\n", "\t", "界", "e\u0301", "…", "\x1b[38;5;12m", "\x1b[m"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
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
