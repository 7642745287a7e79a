package safetext_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// TestPOSIXLine: a word a shell would split or expand is quoted, and a
// shell reads every word back as it was; plain words and the "0x…" the
// user fills in stay as they are.
func TestPOSIXLine(t *testing.T) {
	words := []string{"svcwallet", "status", "q-1", "--config", "/home/me/my configs/it's $HOME.toml", "0x…", "", "a;b", "~x", "*"}
	line := safetext.POSIX.Line(words...)
	if !strings.HasPrefix(line, "svcwallet status q-1 --config '/home/me/my configs/it'\\''s $HOME.toml' 0x… '' 'a;b' '~x' '*'") {
		t.Fatalf("line %s", line)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	got, err := exec.Command(sh, "-c", "set -- "+strings.TrimPrefix(line, "svcwallet ")+`; for w in "$@"; do printf '[%s]\n' "$w"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, w := range words[1:] {
		want.WriteString("[" + w + "]\n")
	}
	if string(got) != want.String() {
		t.Fatalf("the shell read\n%s\nwant\n%s", got, want.String())
	}
}

// TestZshReadsTheWord: a word beginning with = is quoted, since zsh (macOS's
// shell) reads a bare =NAME as the path of the program NAME: --config =svc
// would load the svcwallet binary's path, not the file =svc.
func TestZshReadsTheWord(t *testing.T) {
	words := []string{"svcwallet", "--config", "=ls", "a=b"}
	line := safetext.POSIX.Line(words...)
	if line != "svcwallet --config '=ls' a=b" {
		t.Fatalf("line %s", line)
	}
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("no zsh")
	}
	got, err := exec.Command(zsh, "-f", "-c", "set -- "+strings.TrimPrefix(line, "svcwallet ")+`; for w in "$@"; do printf '[%s]\n' "$w"; done`).Output()
	if err != nil || string(got) != "[--config]\n[=ls]\n[a=b]\n" {
		t.Fatalf("zsh read %q (%v)", got, err)
	}
}

// TestFishReadsTheWord: the POSIX line reads back the same words in sh and
// in fish (whose completion svcwallet ships), whose single quotes take \'
// and \\ as escapes: a --config path ending in a backslash before a quote
// ran what followed it (/tmp/a\'; echo INJECTED #). fish reads a bare
// %self as its own process id.
func TestFishReadsTheWord(t *testing.T) {
	words := []string{`/tmp/a\'; echo INJECTED #`, `a\`, `a\\b`, `\'`, "%self", "it's", "0x…", "q-1"}
	line := safetext.POSIX.Line(words...)
	// Held to its spelling too, where fish is not installed.
	if first := `'/tmp/a'\\''\''; echo INJECTED #' 'a'\\'' 'a'\\''\\'b' ''\\''\''' '%self'`; !strings.HasPrefix(line, first) {
		t.Errorf("line %s, want it to begin %s", line, first)
	}
	var want strings.Builder
	for _, w := range words {
		want.WriteString("[" + w + "]\n")
	}
	ran := 0
	for _, shell := range [][]string{{"sh", "-c"}, {"fish", "--no-config", "-c"}} {
		path, err := exec.LookPath(shell[0])
		if err != nil {
			continue
		}
		ran++
		got, err := exec.Command(path, append(shell[1:], "printf '[%s]\\n' "+line)...).CombinedOutput()
		if err != nil || string(got) != want.String() {
			t.Errorf("%s read %s as\n%s(%v), want\n%s", shell[0], line, got, err, want.String())
		}
	}
	if ran == 0 {
		t.Skip("neither sh nor fish")
	}
}

// TestPowerShellLine: for PowerShell a word is quoted in single quotes when
// PowerShell would split, expand or reread it ($, `, ;, spaces, an array's
// comma, a splat's @, a number), every single quote PowerShell knows
// (typographic ones too) is doubled, a Windows path's backslashes need no
// quotes, and a quoted program is run with the call operator.
func TestPowerShellLine(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"svcwallet", "status", "q-1", "--config", `C:\Users\me\AppData\Roaming\svcwallet\config.toml`},
			`svcwallet status q-1 --config C:\Users\me\AppData\Roaming\svcwallet\config.toml`},
		{[]string{"svcwallet", "--config", `C:\Users\my files\it's $env:HOME.toml`},
			`svcwallet --config 'C:\Users\my files\it''s $env:HOME.toml'`},
		{[]string{"cast", "wallet", "sign", "--data", "--from-file", `D:\t\transfer-q-1.json`},
			`cast wallet sign --data --from-file D:\t\transfer-q-1.json`},
		{[]string{"x", "", "a;b", "a,b", "@a", "`n", "~x", "%x", "it’s", "‘q‛‚"},
			"x '' 'a;b' 'a,b' '@a' '`n' '~x' '%x' 'it’’s' '‘‘q‛‛‚‚'"},
		{[]string{"x", "25", "007", "0x10", "-5", ".5", "1e3", "0x…", "--env", "-", "v1"},
			"x '25' '007' '0x10' '-5' '.5' '1e3' '0x…' --env - v1"},
		// PowerShell reads a bare word beginning with - as a parameter and
		// breaks it at its first . (PowerShell issue 6291, 5.1 and 7 alike):
		// --env -prod.eu would reach the program as -prod and .eu, another
		// environment. The flags' own words stay bare.
		{[]string{"x", "--env", "-prod.eu", "--config", "-my.toml", "-v:diag", "--allow-repeat"},
			"x --env '-prod.eu' --config '-my.toml' '-v:diag' --allow-repeat"},
		{[]string{`C:\Program Files\svcwallet\svcwallet.exe`, "status"},
			`& 'C:\Program Files\svcwallet\svcwallet.exe' status`},
	} {
		if got := safetext.PowerShell.Line(tc.words...); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.words, got, tc.want)
		}
	}
}
