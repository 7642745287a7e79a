package screentest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// pressed finds a key a message names: "press r", "Press enter", "press
// ctrl+r", and the keys named after one in the same breath ("; r for a new
// quote", ", or esc to go back", ", u to use"); words folded over lines
// are joined first.
var pressed = regexp.MustCompile(`(?i)\bpress ([^\s,;.:)]+)|(?:[;,] (?:or )?|\bor )([a-z]|esc|enter|tab|ctrl\+\w|shift\+\w) (?:to|for)\b`)

// NamedKeys are the keys view names (pressed), in order.
func NamedKeys(view string) []string {
	flat := strings.Join(strings.Fields(ansi.Strip(view)), " ")
	var keys []string
	for _, m := range pressed.FindAllStringSubmatch(flat, -1) {
		keys = append(keys, m[1]+m[2])
	}
	return keys
}

// RequireNamedKeysAct fails when view names a key (NamedKeys) that acts
// reports does nothing now: a key hint is a promise, in a message as in
// the footer.
func RequireNamedKeysAct(t testing.TB, where, view string, acts func(key string) bool) {
	t.Helper()
	for _, k := range NamedKeys(view) {
		if !acts(k) {
			t.Errorf("%s: the screen says press %s, which does nothing now:\n%s", where, k, ansi.Strip(view))
		}
	}
}

// FooterOffers reports whether frame's footer, its last line, offers k:
// the root's keys (esc back) with the screen's, each held to act by the
// footer's own tests, so a key a message names may be checked against it.
func FooterOffers(frame, k string) bool {
	lines := strings.Split(strings.TrimRight(ansi.Strip(frame), "\n "), "\n")
	for _, item := range strings.Split(lines[len(lines)-1], "•") {
		if f := strings.Fields(item); len(f) > 0 && f[0] == k {
			return true
		}
	}
	return false
}
