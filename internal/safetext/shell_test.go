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
