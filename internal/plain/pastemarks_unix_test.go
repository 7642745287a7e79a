//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos

package plain

import "testing"

// TestSecretLineOpensAPaste: a secret's line holds its paste's marks, not
// as its text: one whose paste goes on past it is open.
func TestSecretLineOpensAPaste(t *testing.T) {
	for line, want := range map[string][2]any{
		"\x1b[200~key\x1b[201~": {"key", false},
		"\x1b[200~first":        {"first", true},
		"typed":                 {"typed", false},
	} {
		if s, open := secretLine(line); s != want[0] || open != want[1] {
			t.Errorf("line %q: %q, open %v; want %v", line, s, open, want)
		}
	}
}
