//go:build windows

package signer

import (
	"reflect"
	"testing"
)

// TestSplitCommandOnWindows: on Windows a signing command is read by
// Windows' rules, so a program's path keeps its backslashes.
func TestSplitCommandOnWindows(t *testing.T) {
	for in, want := range map[string][]string{
		`C:\Tools\cast.exe wallet sign --data --from-file {file}`: {`C:\Tools\cast.exe`, "wallet", "sign", "--data", "--from-file", "{file}"},
		`"C:\Program Files\cast.exe" --keystore C:\keys\k.json`:   {`C:\Program Files\cast.exe`, "--keystore", `C:\keys\k.json`},
	} {
		if got, err := SplitCommand(in); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
}
