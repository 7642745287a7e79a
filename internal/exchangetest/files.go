package exchangetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Must stops the test on err.
func Must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// PlantLink makes path a symbolic link to a file of the user's holding
// content, the file an attacker would have svcwallet write or read.
func PlantLink(t testing.TB, path, content string) (target string) {
	t.Helper()
	target = filepath.Join(t.TempDir(), "target")
	Must(t, os.WriteFile(target, []byte(content), 0o600))
	Must(t, os.Symlink(target, path))
	return target
}

// WantLinkRefused checks that err names path as a link and that target
// still holds content.
func WantLinkRefused(t testing.TB, what string, err error, path, target, content string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), path+" is a symbolic link") {
		t.Errorf("%s: %v, want a refusal naming the link %s", what, err, path)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != content {
		t.Errorf("%s: the link's target now holds %q (%v), want %q", what, b, err, content)
	}
}
