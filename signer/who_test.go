package signer

import "testing"

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
