package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadStateIsStrict: a state file is read back as an answer is: a
// field named twice (in any case), a field the record lacks, a second
// value or more than 1 MiB is not svcwallet's, and nothing of it is used.
func TestReadStateIsStrict(t *testing.T) {
	type record struct {
		Env   string `json:"env"`
		Count int    `json:"count"`
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name, body string
		ok         bool
	}{
		{"whole", `{"env":"sandbox","count":2}`, true},
		{"repeated", `{"env":"sandbox","env":"production"}`, false},
		{"repeated in another case", `{"env":"sandbox","ENV":"production"}`, false},
		{"unknown field", `{"env":"sandbox","cookie":"x"}`, false},
		{"two values", `{"env":"sandbox"} {"env":"production"}`, false},
		{"too large", `{"env":"` + strings.Repeat("a", maxStateFile) + `"}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(c.body), 0o600); err != nil {
				t.Fatal(err)
			}
			var r record
			err := ReadState(path, &r)
			if c.ok {
				if err != nil || r != (record{"sandbox", 2}) {
					t.Fatalf("read %+v, %v", r, err)
				}
				return
			}
			if !errors.Is(err, ErrNotState) {
				t.Fatalf("read %+v with %v, want ErrNotState", r, err)
			}
		})
	}
}

// TestReadStateNamesThePathEscaped: a state file refused is named escaped
// (safetext.Shown), as a too large one already was: its folder is the
// environment's (XDG_STATE_HOME), and cleaned, x NBSP y read as "x y".
func TestReadStateNamesThePathEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x\u00a0y")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"repeated":      `{"env":"a","env":"b"}`,
		"unknown field": `{"cookie":"x"}`,
		"two values":    `{"env":"a"} {"env":"b"}`,
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		var r struct {
			Env string `json:"env"`
		}
		if err := ReadState(path, &r); err == nil || !strings.Contains(err.Error(), `x\u00a0y`) || strings.Contains(err.Error(), "\u00a0") {
			t.Errorf("%s: %v, want the path escaped", name, err)
		}
	}
}

// TestConfigRefusalNamesThePathEscaped: a config refused for what it holds
// (TOML, an unknown key, a theme, an environment) is named escaped, as one
// that cannot be read already was: cleaned, x NBSP y read as "x y".
func TestConfigRefusalNamesThePathEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x\u00a0y")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.toml")
	for name, body := range map[string]string{
		"not TOML":      "default_env = ",
		"unknown key":   "defualt_env = \"a\"",
		"theme":         "theme = \"blue\"",
		"sandbox table": "[env.sandbox]\nbase_url = \"https://a.example\"",
		"environment":   "[env.a]\nbase_url = \"ftp://a.example\"",
		"case twins":    "[env.a]\n[env.A]",
	} {
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadConfig(path, true); err == nil || !strings.Contains(err.Error(), `x\u00a0y`) || strings.Contains(err.Error(), "\u00a0") {
			t.Errorf("%s: %v, want the path escaped", name, err)
		}
	}
}
