package signer

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestSplitPOSIX: a signing command splits as a POSIX shell splits a
// simple command, and nothing in it is run or expanded.
func TestSplitPOSIX(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"cast wallet sign --ledger --data --from-file {file}", []string{"cast", "wallet", "sign", "--ledger", "--data", "--from-file", "{file}"}},
		{"  a\tb \n c  ", []string{"a", "b", "c"}},
		{`'/opt/my tools/sign' --x`, []string{"/opt/my tools/sign", "--x"}},
		{`sign "a \"b\" \\ c" d`, []string{"sign", `a "b" \ c`, "d"}},
		{`sign --f='$HOME' a\ b`, []string{"sign", "--f=$HOME", "a b"}},
		{`sign "" x`, []string{"sign", "", "x"}},
		{`sign | rm -rf ~ ; $(id)`, []string{"sign", "|", "rm", "-rf", "~", ";", "$(id)"}},
	} {
		got, err := splitPOSIX(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "   ", `sign 'a`, `sign "a`, `sign a\`} {
		if got, err := splitPOSIX(in); err == nil {
			t.Errorf("%q: %q, want an error", in, got)
		}
	}
}

// TestSplitWindows: a signing command splits as a Windows program reads
// its command line: a path's backslashes are kept, quoted or not, and a
// quoted path with spaces is one word; only backslashes before a " escape.
// windowsLines are Windows command lines and their words, read on every
// system by splitWindows and on Windows by SplitCommand, Windows' own
// reading checked against them (split_windows_test.go).
var windowsLines = []struct {
	in   string
	want []string
}{
	{`C:\Tools\cast.exe wallet sign --ledger --data --from-file {file}`,
		[]string{`C:\Tools\cast.exe`, "wallet", "sign", "--ledger", "--data", "--from-file", "{file}"}},
	{`"C:\Program Files\Foundry\cast.exe" wallet sign --keystore "C:\Users\me\My Keys\k.json" --data {file}`,
		[]string{`C:\Program Files\Foundry\cast.exe`, "wallet", "sign", "--keystore", `C:\Users\me\My Keys\k.json`, "--data", "{file}"}},
	{`  \\server\share\sign.exe  --key-dir C:\keys\  x  `, []string{`\\server\share\sign.exe`, "--key-dir", `C:\keys\`, "x"}},
	// 2n backslashes then " are n and a closing quote; 2n+1, n and a literal ".
	{`sign.exe "C:\dir with space\\" a\\\"b c\\d`, []string{"sign.exe", `C:\dir with space\`, `a\"b`, `c\\d`}},
	{`sign.exe --path="C:\My Keys\k.json" a"b c"d`, []string{"sign.exe", `--path=C:\My Keys\k.json`, "ab cd"}},
	{`sign.exe "" x 'a b'`, []string{"sign.exe", "", "x", "'a", "b'"}},
	{"sign.exe\ta\r\nb", []string{"sign.exe", "a", "b"}},
	{`sign.exe $HOME %USERPROFILE% | & ;`, []string{"sign.exe", "$HOME", "%USERPROFILE%", "|", "&", ";"}},
}

// windowsRefusals are lines refused on every system, each with what its
// refusal says: the empty command and the empty program among them.
var windowsRefusals = map[string]string{
	"":                       "empty",
	" \t ":                   "empty",
	`"C:\Tools\cast.exe`:     "not closed",
	`"" x`:                   "names no program",
	`"C:\Tools\cast.exe"x`:   "followed by a space",
	`C:\To"ols\cast.exe`:     "inside the program's name",
	`sign.exe "a b`:          "not closed",
	`sign.exe "a""b"`:        `""`,
	`sign.exe "C:\dir\\\" x`: "not closed",
}

func TestSplitWindows(t *testing.T) {
	for _, tc := range windowsLines {
		got, err := splitWindows(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for in, says := range windowsRefusals {
		if got, err := splitWindows(in); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %q, %v; want an error saying %q", in, got, err, says)
		}
	}
}

// TestSplitWindowsReadsGoEscaping: any words, escaped as Go's os/exec
// escapes a Windows program's arguments (syscall.EscapeArg, copied in
// escapeWindowsArg), split back into the same words, so what a user
// quotes for Windows reaches the signing command as the user meant.
func TestSplitWindowsReadsGoEscaping(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 3))
	const alphabet = `ab \"'\t:x\\`
	for range 5000 {
		words := make([]string, 1+r.IntN(4))
		line := `C:\Tools\sign.exe`
		for i := range words {
			b := make([]byte, r.IntN(8))
			for j := range b {
				b[j] = alphabet[r.IntN(len(alphabet))]
			}
			words[i] = string(b)
			line += " " + escapeWindowsArg(words[i])
		}
		got, err := splitWindows(line)
		if err != nil || !reflect.DeepEqual(got[1:], words) || got[0] != `C:\Tools\sign.exe` {
			t.Fatalf("%q: %q, %v; want %q", line, got, err, words)
		}
	}
}

// escapeWindowsArg is syscall.EscapeArg (Windows only), which os/exec uses
// to put each argument on a Windows program's command line.
func escapeWindowsArg(s string) string {
	if s == "" {
		return `""`
	}
	if !strings.ContainsAny(s, "\"\\ \t") {
		return s
	}
	hasSpace := strings.ContainsAny(s, " \t")
	var b strings.Builder
	if hasSpace {
		b.WriteByte('"')
	}
	slashes := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(s[i])
	}
	if hasSpace {
		b.WriteString(strings.Repeat(`\`, slashes))
		b.WriteByte('"')
	}
	return b.String()
}
