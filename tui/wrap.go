package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrap wraps text at spaces to w cells, breaking a longer word where it
// must. ansi.Wrap also breaks after every hyphen, which splits a quote id
// ("q-" then the rest) so that neither piece can be read or searched for.
func Wrap(text string, w int) string {
	const keep = "\u2011" // a non-breaking hyphen while wrapping
	return strings.ReplaceAll(ansi.Wrap(strings.ReplaceAll(text, "-", keep), w, ""), keep, "-")
}
