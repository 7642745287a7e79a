//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPasswordFileRenamedThenNamedAgain: a password file open to others
// whose name a terminal acts on is to be renamed, then named again on the
// command, whose refusal then names the chmod; never a doctor run, which
// checks no password file and so names no command that mends it.
func TestPasswordFileRenamedThenNamedAgain(t *testing.T) {
	lightScrypt(t)
	path := filepath.Join(t.TempDir(), "pa\x1b[31mss")
	if err := os.WriteFile(path, []byte(cliPass+"\n"), 0o600); err != nil || os.Chmod(path, 0o644) != nil {
		t.Fatal(err)
	}
	hexKey, _ := testKeyHex(t)
	r := keyCmd(t, lines(hexKey), nil, "import", "--keystore", t.TempDir(), "--password-file", path)
	if r.code == 0 || strings.Contains(r.stderr, "doctor") || strings.Contains(r.stderr, "\x1b") ||
		!strings.Contains(r.stderr, "rename it with letters, digits and dashes only, then give --password-file its new name") {
		t.Errorf("exit %d:\n%q", r.code, r.stderr)
	}
}
