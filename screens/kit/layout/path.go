package layout

import (
	"os"

	"github.com/charmbracelet/x/ansi"
)

// PathTail is path cut to w cells from the left, "…" saying so, at a
// separator: the last whole elements that fit ("…/svcwallet/keystore"),
// since a folder cut mid-name ("…vcwallet") reads as another. Only a last
// element wider than w alone is cut inside it. Every path shortened on
// screen is shortened here.
func PathTail(path string, w int) string {
	if ansi.StringWidth(path) <= w {
		return path
	}
	for i := 0; i < len(path); i++ {
		if os.IsPathSeparator(path[i]) && ansi.StringWidth(path[i:])+1 <= w {
			return "…" + path[i:]
		}
	}
	r := []rune(path)
	for len(r) > 0 && ansi.StringWidth(string(r))+1 > w {
		r = r[1:]
	}
	return "…" + string(r)
}
