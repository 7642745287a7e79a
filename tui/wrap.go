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
// its indentation, and a word wider than w stands alone. The spaces
// between words stay as they were (two after a label, a column's padding)
// but at a break, where they are dropped.
func WrapAtSpaces(line string, w int) []string {
	if ansi.StringWidth(line) <= w {
		return []string{line}
	}
	rest := strings.TrimLeft(line, " ")
	indent := line[:len(line)-len(rest)]
	var lines []string
	cur := indent
	for rest != "" {
		word, after, _ := strings.Cut(rest, " ")
		next := strings.TrimLeft(after, " ")
		gap := after[:len(after)-len(next)]
		if cur != indent && ansi.StringWidth(cur)+ansi.StringWidth(word) > w {
			lines = append(lines, strings.TrimRight(cur, " "))
			cur = indent
		}
		cur += word + " " + gap
		rest = next
	}
	return append(lines, strings.TrimRight(cur, " "))
}
