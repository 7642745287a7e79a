//go:build windows

package signer

import (
	"reflect"
	"strings"
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

// TestSplitCommandIsWindowsOwnReading: on Windows the words are the
// system's own (CommandLineToArgvW), the same as splitWindows reads on
// every system, and what it refuses (the empty command, the empty program,
// a quote never closed, "" inside quotes) is still refused.
func TestSplitCommandIsWindowsOwnReading(t *testing.T) {
	for _, tc := range windowsLines {
		if got, err := SplitCommand(tc.in); err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for in, says := range windowsRefusals {
		if got, err := SplitCommand(in); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %q, %v; want an error saying %q", in, got, err, says)
		}
	}
}
