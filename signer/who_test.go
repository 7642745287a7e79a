package signer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWhoShowsTheKeystorePathEscaped: the keystore's folder comes from the
// environment (XDG_CONFIG_HOME, a config's keystore folder), so the line
// that names the signing key shows it escaped, never raw: a no-break space
// reads as \u00a0, an escape sequence never reaches the terminal.
func TestWhoShowsTheKeystorePathEscaped(t *testing.T) {
	for path, want := range map[string]string{
		"/home/ana/.config/svcwallet/keystore/UTC--f39f": "keystore /home/ana/.config/svcwallet/keystore/UTC--f39f",
		"/tmp/x\u00a0y/keystore/UTC--f39f":               `keystore "/tmp/x\u00a0y/keystore/UTC--f39f"`,
		"/tmp/\x1b]52;c;eA==\a/keystore/UTC--f39f":       `keystore "/tmp/\x1b]52;c;eA==\a/keystore/UTC--f39f"`,
	} {
		if got := (Found{Place: KeyInKeystore, Path: path}).Who(); got != want {
			t.Errorf("Who() of %q = %q, want %q", path, got, want)
		}
	}
}

// TestKeystoreErrorsShowThePathEscaped: a keystore file refused (missing,
// a folder, not JSON) is named escaped in the error every face shows.
func TestKeystoreErrorsShowThePathEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x\u00a0y")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	notJSON := filepath.Join(dir, "UTC--f39f")
	if err := os.WriteFile(notJSON, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing"), dir, notJSON} {
		_, err := LoadKeystoreKey(path, "pass")
		if err == nil || strings.Contains(err.Error(), "\u00a0") || !strings.Contains(err.Error(), `x\u00a0y`) {
			t.Errorf("LoadKeystoreKey(%q): %v", path, err)
		}
	}
}
