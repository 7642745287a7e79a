package signer

import (
	"encoding/json"
	"errors"
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

// TestFindKeystoreShowsPathsEscaped: an address FindKeystore finds in no
// file, or in two, is said with the keystore's folder and the files named
// escaped: cleaned, the folder x NBSP y read as another one, "x y".
func TestFindKeystoreShowsPathsEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x\u00a0y")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	addr, path, err := NewKeystoreKey(dir, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	other := addr
	other[0] ^= 1
	saysEscaped := func(err error) bool {
		return err != nil && strings.Contains(err.Error(), `x\u00a0y`) && !strings.Contains(err.Error(), "\u00a0")
	}
	if _, err := FindKeystore(dir, other); !saysEscaped(err) {
		t.Errorf("an address in no file: %v", err)
	}
	blob, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "copy.json"), blob, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := FindKeystore(dir, addr); !saysEscaped(err) || !strings.Contains(err.Error(), "2 keystore files hold") {
		t.Errorf("an address in two files: %v", err)
	}
	// A file that does not say its address (Foundry's) beside none that
	// names the one asked for.
	var kept map[string]any
	if err := json.Unmarshal(blob, &kept); err != nil {
		t.Fatal(err)
	}
	delete(kept, "address")
	foundry, _ := json.Marshal(kept)
	if err := os.WriteFile(filepath.Join(dir, "foundry"), foundry, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := FindKeystore(dir, other); !saysEscaped(err) || !errors.Is(err, ErrChooseFile) {
		t.Errorf("an address in no file, beside one that does not say its own: %v", err)
	}
}
