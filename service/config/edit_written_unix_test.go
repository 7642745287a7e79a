//go:build unix

package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestEditSaysTheFileItWrote: an edit through a link names the file it
// wrote, as it looked the link up once before the edit: the link pointed
// elsewhere meanwhile, the file named after the edit was another than the
// one written (configWritten looked it up again).
func TestEditSaysTheFileItWrote(t *testing.T) {
	first := raceConfig(t)
	dir := filepath.Dir(first)
	other, link := filepath.Join(dir, "other.toml"), filepath.Join(dir, "link.toml")
	if err := os.WriteFile(other, []byte(twoEnvs), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(first, link); err != nil {
		t.Fatal(err)
	}
	written, err := editConfig(link, func(text string, _ Config) (string, error) {
		if os.Remove(link) != nil || os.Symlink(other, link) != nil {
			t.Fatal("the link was not pointed elsewhere")
		}
		return "bell = true\n" + text, nil
	}, onlyBellSet)
	real, _ := filepath.EvalSymlinks(first) // macOS's temporary folder is under a link
	if err != nil || written.Path != link || written.Link != real {
		t.Fatalf("written %+v, %v; want %s through the link %s", written, err, real, link)
	}
	if !strings.HasPrefix(readText(t, first), "bell = true\n") || strings.Contains(readText(t, other), "bell") {
		t.Fatal("the file written is not the one the link named when the edit began")
	}
	// A config that is no link is said as named.
	if written, err := editConfig(other, func(text string, _ Config) (string, error) { return "bell = true\n" + text, nil },
		func(before, after Config) bool { return after.Bell }); err != nil || written != (Written{Path: other}) {
		t.Fatalf("written %+v, %v; want %s alone", written, err, other)
	}
}

// onlyBellSet is an edit's check that the config after it is the one
// before with the bell turned on, and nothing else changed.
func onlyBellSet(before, after Config) bool {
	want := cloneConfig(before)
	want.Bell = true
	return reflect.DeepEqual(want, after)
}
