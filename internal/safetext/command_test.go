package safetext

import (
	"strings"
	"testing"
)

// TestCommandQuotesTheConfig: a --config path is one word of the user's
// shell, quoted where it must be; one a terminal would not show as it is
// (an escape, a bidi override, a control, an invisible character, a space
// other than ' ', bytes not UTF-8) is left out, the line saying so, in both
// shells.
func TestCommandQuotesTheConfig(t *testing.T) {
	words := []string{"svcwallet", "status", "q-1", "--watch", "--env", "prod"}
	for _, tc := range []struct {
		shell       Shell
		config, end string
	}{
		{POSIX, "/home/me/svc.toml", " --config /home/me/svc.toml"},
		{POSIX, "/home/me/my configs/svc.toml", ` --config '/home/me/my configs/svc.toml'`},
		{POSIX, `/tmp/it's;$(id)`, ` --config '/tmp/it'\''s;$(id)'`},
		{POSIX, "/tmp/конфиг.toml", " --config '/tmp/конфиг.toml'"},
		{PowerShell, `C:\Users\me\svc.toml`, ` --config C:\Users\me\svc.toml`},
		{PowerShell, `C:\my configs\it's $x.toml`, ` --config 'C:\my configs\it''s $x.toml'`},
		{PowerShell, "C:\\a\u2019b.toml", " --config 'C:\\a\u2019\u2019b.toml'"},
	} {
		want := tc.shell.Line(words...) + tc.end
		if got := tc.shell.Command("--config", tc.config, words...); got != want {
			t.Errorf("%q: got  %s\nwant %s", tc.config, got, want)
		}
	}
	for _, config := range []string{"/tmp/cfg\x1b[31mred/c.toml", "/tmp/\u202elmot.c", "/tmp/a\nb.toml", "/tmp/a\tb.toml", "/tmp/a\u200bb.toml", "/tmp/a\u00a0b.toml", "/tmp/a\u3000b.toml", "/tmp/\xff.toml", "/tmp/a\x7fb.toml", "/tmp/a\u0085b"} {
		for _, sh := range []Shell{POSIX, PowerShell} {
			got := sh.Command("--config", config, words...)
			if got != sh.Line(words...)+" (add --config and the config file's path: it holds a character a terminal acts on or hides, so it is not printed)" || strings.Contains(got, "/tmp") {
				t.Errorf("%q: %q, want the line without it and why", config, got)
			}
		}
	}
	if got := POSIX.Command("--config", "", words...); got != POSIX.Line(words...) {
		t.Errorf("no config: %q", got)
	}
}

// TestCommandEndingQuotesTheDashForPowerShell: PowerShell is given '--'
// quoted, which every version passes to the program; sh the bare --.
func TestCommandEndingQuotesTheDashForPowerShell(t *testing.T) {
	words := []string{"svcwallet", "status", "--env", "prod"}
	if got, want := PowerShell.CommandEnding("--config", `C:\c.toml`, words, "-a.b"), `svcwallet status --env prod --config C:\c.toml '--' '-a.b'`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := POSIX.CommandEnding("--config", "", words, "-a.b"), `svcwallet status --env prod -- -a.b`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestPiped: a line given "-" on its standard input pipes it as each
// shell writes it: printf in POSIX (zsh's echo - writes an empty line),
// a quoted string in PowerShell, where a bare - is no expression.
func TestPiped(t *testing.T) {
	if got, want := POSIX.Piped("-", "svcwallet status -- -"), `printf '%s\n' - | svcwallet status -- -`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := PowerShell.Piped("-", "svcwallet status '--' -"), `'-' | svcwallet status '--' -`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
