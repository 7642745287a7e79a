package layout

import "testing"

// TestPathTail: a path cut for the screen keeps its last whole elements
// that fit, never a folder's name cut mid-word; only a last element wider
// than the room alone is cut inside it.
func TestPathTail(t *testing.T) {
	const p = "/tmp/left52e/h/.config/svcwallet/keystore"
	for _, c := range []struct {
		w    int
		want string
	}{
		{len(p), p},
		{len(p) - 1, "…/left52e/h/.config/svcwallet/keystore"},
		{30, "…/h/.config/svcwallet/keystore"},
		{29, "…/.config/svcwallet/keystore"},
		{25, "…/svcwallet/keystore"},
		{19, "…/keystore"},
		{6, "…store"},
	} {
		if got := PathTail(p, c.w); got != c.want {
			t.Errorf("PathTail(%d) = %q, want %q", c.w, got, c.want)
		}
	}
}
