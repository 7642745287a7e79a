//go:build unix

package kit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// standIn puts scripts named names first on PATH; each writes its
// environment to out and prints "on" (tmux's answer), standing in for the
// real program so a test can see what a child inherits.
func standIn(t *testing.T, names ...string) (out string) {
	t.Helper()
	dir := t.TempDir()
	out = filepath.Join(dir, "env.out")
	script := "#!/bin/sh\nenv > '" + out + "'\necho on\n"
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return out
}

// wantNoSecrets checks that the child that wrote out saw the parent's
// ordinary variables and none of its secret ones; it never prints a value.
func wantNoSecrets(t *testing.T, out string) {
	t.Helper()
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the stand-in did not run: %v", err)
	}
	env := "\n" + string(b)
	if !strings.Contains(env, "\nCHILDENV_MARK=1\n") {
		t.Error("the child did not get the parent's environment")
	}
	for _, name := range []string{"SVCWALLET_PRIVATE_KEY", "SVCWALLET_API_KEY"} {
		if strings.Contains(env, "\n"+name+"=") {
			t.Errorf("%s reached the child", name)
		}
	}
}

func setSecrets(t *testing.T) {
	t.Setenv("SVCWALLET_PRIVATE_KEY", "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	t.Setenv("SVCWALLET_API_KEY", "test-api-key")
	t.Setenv("CHILDENV_MARK", "1")
}

// TestOpenerGetsNoSecrets: the browser opener does not inherit the key
// or the API key from svcwallet's environment.
func TestOpenerGetsNoSecrets(t *testing.T) {
	setSecrets(t)
	t.Setenv("DISPLAY", ":0")
	out := standIn(t, "xdg-open", "open")
	if err := openInBrowser("https://example.com/tx/1"); err != nil {
		t.Fatal(err)
	}
	wantNoSecrets(t, out)
}

// TestCopyTmuxGetsNoSecrets: the tmux asked for set-clipboard when copying
// does not inherit the key or the API key.
func TestCopyTmuxGetsNoSecrets(t *testing.T) {
	setSecrets(t)
	out := standIn(t, "tmux")
	if v, err := tmuxSetClipboard(); err != nil || strings.TrimSpace(v) != "on" {
		t.Fatalf("tmux answered %q, %v", v, err)
	}
	wantNoSecrets(t, out)
}
