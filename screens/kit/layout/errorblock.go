package layout

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/tui"
)

// ErrorBlock draws "label: explanation" wrapped to width w, the label in the
// error style and the lines after the first indented under the text, so a
// long explanation is read in full rather than cut at the edge.
func ErrorBlock(c *tui.Common, label string, err error, w int) string {
	if err == nil {
		return ""
	}
	head := label + ": "
	hw := ansi.StringWidth(head)
	if w-hw < 20 {
		hw = 0 // too narrow to indent: wrap under the label
	}
	lines := strings.Split(tui.Wrap(c.Said(err), max(w-hw, 1)), "\n")
	var b strings.Builder
	b.WriteString(c.Styles.ErrorToast.Render(head))
	if hw == 0 {
		b.WriteString("\n")
	}
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\n" + strings.Repeat(" ", hw))
		}
		b.WriteString(strings.TrimRight(l, " "))
	}
	return b.String() + "\n"
}
