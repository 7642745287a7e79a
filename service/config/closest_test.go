package config

import (
	"slices"
	"testing"
)

// TestClosestNamesAtMostTwoEdits: only names a typo or two away are
// suggested, all of them when several are equally near; a name three
// edits away is none, however many are (w is three from csv and env).
func TestClosestNamesAtMostTwoEdits(t *testing.T) {
	names := []string{"csv", "env", "json", "want", "wait"}
	for typed, want := range map[string][]string{
		"jsno": {"json"},
		"wat":  {"want", "wait"},
		"w":    nil,
		"zzzz": nil,
	} {
		if got := ClosestNames(typed, names); !slices.Equal(got, want) {
			t.Errorf("ClosestNames(%q) = %q, want %q", typed, got, want)
		}
	}
	if got := ClosestName("abc", []string{"xyz"}); got != "" {
		t.Errorf("ClosestName(abc, xyz), three edits apart: %q, want none", got)
	}
}
