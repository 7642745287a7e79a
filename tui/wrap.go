package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrap wraps text at spaces to w cells, breaking a longer word where it
// must. ansi.Wrap also breaks after every hyphen, which splits a quote id
// ("q-" then the rest) so that neither piece can be read or searched for.
func Wrap(text string, w int) string { return WrapAfter(text, w, "") }

// WrapAfter is Wrap that may also break after any of breaks (the & that
// joins permissions).
func WrapAfter(text string, w int, breaks string) string {
	const keep = "\u2011" // a non-breaking hyphen while wrapping
	return strings.ReplaceAll(ansi.Wrap(strings.ReplaceAll(text, "-", keep), w, breaks), keep, "-")
}

// WrapAtSpaces breaks a line wider than w cells at spaces only (ansi.Wrap
// also breaks after a hyphen, splitting --theme); the lines it makes keep
// its indentation, and a word wider than w stands alone.
func WrapAtSpaces(line string, w int) []string {
	if ansi.StringWidth(line) <= w {
		return []string{line}
	}
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	var lines []string
	cur := indent
	for _, word := range strings.Fields(line) {
		if cur != indent && ansi.StringWidth(cur)+1+ansi.StringWidth(word) > w {
			lines = append(lines, cur)
			cur = indent
		}
		if cur != indent {
			cur += " "
		}
		cur += word
	}
	return append(lines, cur)
}
