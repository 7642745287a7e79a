package screens

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svcwallet/service"
	"svcwallet/service/sandbox"
)

// keystoreLogin opens a console, picks wallet login from a keystore file,
// types path and presses enter; it returns the console to look at.
func keystoreLogin(t *testing.T, path string) *console {
	t.Helper()
	c := newConsole(t, 100, 30, consoleOpts{})
	c.press("shift+tab", "right", "tab", "tab") // method: wallet; source: keystore; to the path
	c.typeText(path)
	c.press("enter")
	return c
}

// untilSays waits for a sentence that may be wrapped over lines.
func (c *console) untilSays(text string) {
	c.t.Helper()
	c.until(text, func(v string) bool { return strings.Contains(oneLine(v), text) })
}

// TestLoginKeystoreErrors: a directory, a non-JSON file and a missing file
// are each told apart in words, and a leading ~/ is the home directory.
func TestLoginKeystoreErrors(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("directory", func(t *testing.T) {
		c := keystoreLogin(t, home)
		c.untilSays(home + " is a directory: pick a key file in it, e.g. from `svcwallet key list`")
	})
	t.Run("not JSON, from ~/", func(t *testing.T) {
		c := keystoreLogin(t, "~/notes.txt")
		c.untilSays(filepath.Join(home, "notes.txt") + " is not a valid keystore file: it is not keystore V3 JSON")
	})
	t.Run("missing", func(t *testing.T) {
		c := keystoreLogin(t, "~/nope.json")
		c.untilSays("keystore file " + filepath.Join(home, "nope.json") + " does not exist")
	})
}

// TestLoginMethodSwitchClearsError: an error about one method goes when the
// user switches to the other.
func TestLoginMethodSwitchClearsError(t *testing.T) {
	c := keystoreLogin(t, t.TempDir())
	c.untilShows("Login failed")
	c.press("shift+tab", "shift+tab", "left") // back to the method; API key
	if v := c.plain(); strings.Contains(v, "Login failed") || strings.Contains(v, "is a directory") {
		t.Fatalf("the wallet's error is still shown after switching to API key:\n%s", v)
	}
}

// TestLoginAPIKeyFromEnvironment: $SVCWALLET_API_KEY pre-fills the API key
// field (masked), so enter alone logs in.
func TestLoginAPIKeyFromEnvironment(t *testing.T) {
	c := newConsole(t, 100, 30, consoleOpts{env: map[string]string{service.APIKeyEnvVar: sandbox.DemoAPIKey}})
	for _, line := range strings.Split(c.plain(), "\n") {
		if strings.Contains(line, "› API key") && (strings.Contains(line, sandbox.DemoAPIKey) || !strings.Contains(line, "••••")) {
			t.Fatalf("the API key field is not pre-filled, or shows the key in clear: %q", line)
		}
	}
	c.loginAPIKey("")
}
