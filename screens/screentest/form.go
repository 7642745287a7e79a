package screentest

import "strings"

// LineAfter is the line of view after the first that holds text ("" when
// there is none): what a form draws under a field.
func LineAfter(view, text string) string {
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		if strings.Contains(l, text) && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	return ""
}
