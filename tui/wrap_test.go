package tui

import (
	"slices"
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

// TestWrapAtSpacesOnly: a line is broken at spaces alone, never inside
// --theme nor a word wider than the width, which stands on its own line;
// the lines keep the first one's indentation and are measured in cells
// (a wide character takes two); a line that fits is left as it is.
func TestWrapAtSpacesOnly(t *testing.T) {
	for _, tc := range []struct {
		line string
		w    int
		want []string
	}{
		{"start svcwallet with --theme light", 14, []string{"start", "svcwallet with", "--theme light"}},
		{"    indented  words that wrap", 16, []string{"    indented", "    words that", "    wrap"}},
		{"a supercalifragilistic word", 8, []string{"a", "supercalifragilistic", "word"}},
		{"漢字 漢字 ab", 9, []string{"漢字 漢字", "ab"}},
		{"fits  as  it is", 15, []string{"fits  as  it is"}},
	} {
		if got := WrapAtSpaces(tc.line, tc.w); !slices.Equal(got, tc.want) {
			t.Errorf("WrapAtSpaces(%q, %d) = %q, want %q", tc.line, tc.w, got, tc.want)
		}
	}
}

// TestWrapAfterBreaksAfterAnAmpersand: permissions joined by & too wide
// for the width break after an &, never inside a name.
func TestWrapAfterBreaksAfterAnAmpersand(t *testing.T) {
	const perms = "Admin&InternalTransfer&ExternalTransfer&Withdraw&VaultInvestor&Trade"
	if got, want := WrapAfter(perms, 42, "&"), "Admin&InternalTransfer&ExternalTransfer&\nWithdraw&VaultInvestor&Trade"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestWrapAtSpacesKeepsRuns: the spaces between words stay as they were
// (two after a label, a column's padding) on every line made, and only
// those at a break are dropped, so no line starts or ends with them.
func TestWrapAtSpacesKeepsRuns(t *testing.T) {
	for _, tc := range []struct {
		line string
		w    int
		want []string
	}{
		{"Label:  value  note here", 15, []string{"Label:  value", "note here"}},
		{"  Fee cap     2 USDT  at most", 18, []string{"  Fee cap     2", "  USDT  at most"}},
		{"a    b", 3, []string{"a", "b"}},
	} {
		if got := WrapAtSpaces(tc.line, tc.w); !slices.Equal(got, tc.want) {
			t.Errorf("WrapAtSpaces(%q, %d) = %q, want %q", tc.line, tc.w, got, tc.want)
		}
	}
}
