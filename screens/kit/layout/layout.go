// Package layout is the text layout every screen shares: labelled fields,
// clipping and wrapping to the terminal's width, widths measured fast, the
// theme's inks, error blocks, and small text helpers. It knows no screen and
// no session: the app context the screens share is in kit.
package layout

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/tui"
)

// Field renders "label  value" with the label padded to width w.
func Field(c *tui.Common, label string, w int, value string) string {
	return InksFor(c).Label.On(Pad(label, w)) + " " + value
}

// Pad right-pads s with spaces to display width w.
func Pad(s string, w int) string {
	if n := Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// Clip truncates every line of s to width w, so no screen draws past the
// edge; a cut line ends in "…", so no word is ever cut silently (text that
// must be read whole is wrapped before, as ErrorBlock does). Lines
// are not padded: the root fills the rest of the row. A final newline is
// dropped, so a view of h lines is h lines, not h+1.
func Clip(s string, w int) string {
	if w <= 0 {
		return ""
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if !SurelyFits(l, w) && ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// SurelyFits is a cheap test that line l takes at most w cells: an ASCII
// character takes at most one cell and any other rune at most two, so the
// sum outside CSI sequences bounds the width. Any other escape sequence
// makes it give up (false), leaving the exact measure to the caller.
func SurelyFits(l string, w int) bool {
	cells := 0
	for i := 0; i < len(l); i++ {
		b := l[i]
		switch {
		case b == 0x1b:
			if i+1 >= len(l) || l[i+1] != '[' {
				return false
			}
			for i += 2; i < len(l) && (l[i] < 0x40 || l[i] > 0x7e); i++ {
			}
		case b < 0x80:
			cells++
		case b&0xc0 != 0x80: // the first byte of a multi-byte rune
			cells += 2
		}
	}
	return cells <= w
}

// Width is ansi.StringWidth with a shortcut for printable ASCII and the
// CSI sequences that style it, which is most of what screens measure
// (addresses, ids, names, drawn in their inks): one cell a character.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= 0x20 && b < 0x7f:
			n++
		case b == 0x1b && i+1 < len(s) && s[i+1] == '[':
			// Parameter bytes, intermediate bytes, then a final byte.
			j := i + 2
			for j < len(s) && s[j] >= 0x30 && s[j] < 0x40 {
				j++
			}
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x30 {
				j++
			}
			if j == len(s) || s[j] < 0x40 || s[j] >= 0x7f {
				return ansi.StringWidth(s)
			}
			i = j
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// Truncate cuts s to w cells with a tail, only when it is wider.
func Truncate(s string, w int, tail string) string {
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, tail)
}

// Fitting is the first of texts, longest wording first, no wider than w
// cells, else the last: a narrow terminal drops whole phrases rather than
// cut one.
func Fitting(w int, texts ...string) string {
	for _, t := range texts {
		if Width(t) <= w {
			return t
		}
	}
	return texts[len(texts)-1]
}

func Uitoa(v uint64) string { return strconv.FormatUint(v, 10) }

// Fitted is the fullest of render's levels 0 to levels-1 that is at most
// h lines tall, and true; without one, the last (the shortest) and false.
func Fitted(levels, h int, render func(level int) string) (string, bool) {
	var out string
	for level := range levels {
		if out = render(level); strings.Count(out, "\n")+1 <= h {
			return out, true
		}
	}
	return out, false
}
