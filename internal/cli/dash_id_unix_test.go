//go:build unix

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestDashIDRunsAsPrinted: a withdrawal journaled by an earlier version
// with a quote id beginning with '-' gets a resume and a status line that
// name it after "--" (svcwallet status -abc reads as a flag), at a config
// path holding a space; split as sh splits them, they reach the withdrawal,
// not a refusal of an unknown flag.
func TestDashIDRunsAsPrinted(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	intent := &journal.Intent{Chain: "ARBITRUM", ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5")}
	for i, e := range []journal.Entry{
		{Kind: journal.KindIntent, QuoteID: "-unanswered", Intent: intent},
		{Kind: journal.KindIntent, QuoteID: "--sending", Intent: intent},
		{Kind: journal.KindState, QuoteID: "--sending", State: "SENDING"},
	} {
		e.Time, e.Env = t0.Add(time.Duration(i)*time.Minute), "local"
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	local, _ := localConfig(t)
	cfg := filepath.Join(t.TempDir(), "my cfg", "config.toml")
	b, err := os.ReadFile(local)
	if err != nil || os.Mkdir(filepath.Dir(cfg), 0o700) != nil || os.WriteFile(cfg, b, 0o600) != nil {
		t.Fatal("config", err)
	}
	r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local")
	quoted := "--env local --config '" + cfg + "'"
	for _, tc := range []struct{ after, want, said string }{
		{"resume it with ", "svcwallet withdraw resume " + quoted + " -- -unanswered", "withdrawal -unanswered"},
		{"follow it with ", "svcwallet status --watch " + quoted + " -- --sending", "quote id --sending"},
	} {
		_, line, _ := strings.Cut(r.stdout, tc.after)
		line, _, _ = strings.Cut(line, "\n")
		if line != tc.want {
			t.Fatalf("after %q:\n got  %s\n want %s\nin %s", tc.after, line, tc.want, r.stdout)
		}
		if r := asShellSplits(t, line, map[string]string{apiKeyVar: sandbox.DemoAPIKey}); r.code == exitUsage || !strings.Contains(r.stderr, tc.said) {
			t.Errorf("%s, as sh splits it: exit %d\n%s%s", line, r.code, r.stdout, r.stderr)
		}
	}
}

// TestLoneDashIDRunsAsPrinted: a quote id "-" (the spec and the journal
// allow it) is what status reads as "read the ids from standard input",
// after "--" too; its follow line gives it there, and run as each POSIX
// shell here runs it (zsh's echo - writes an empty line) it reaches the
// withdrawal "-", not a refusal of an empty standard input.
func TestLoneDashIDRunsAsPrinted(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	intent := &journal.Intent{Chain: "ARBITRUM", ToAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: decimal.RequireFromString("25"), ReceiveAmount: decimal.RequireFromString("23.5")}
	for i, e := range []journal.Entry{{Kind: journal.KindIntent, QuoteID: "-", Intent: intent}, {Kind: journal.KindState, QuoteID: "-", State: "SENDING"}} {
		e.Time, e.Env = t0.Add(time.Duration(i)*time.Minute), "local"
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	cfg, _ := localConfig(t)
	r := depositCmd(t, nil, "history", "--config", cfg, "--env", "local")
	want := `printf '%s\n' - | svcwallet status --watch --env local --config ` + cfg + " -- -"
	_, line, _ := strings.Cut(r.stdout, "follow it with ")
	line, _, _ = strings.Cut(line, "\n")
	if line != want {
		t.Fatalf("got  %s\nwant %s\nin %s", line, want, r.stdout)
	}
	ran := 0
	for _, name := range []string{"sh", "bash", "zsh"} {
		sh, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		ran++
		// The words as the shell splits them, a byte 1, then what it pipes in.
		out, err := exec.Command(sh, "-c", `svcwallet() { for a in "$@"; do printf '%s\0' "$a"; done; printf '\1'; cat; }; `+line).Output()
		if err != nil {
			t.Fatal(name, err)
		}
		args, stdin, _ := strings.Cut(string(out), "\x01")
		words := strings.Split(strings.TrimSuffix(args, "\x00"), "\x00")
		var stdout, stderr bytes.Buffer
		code := Run(words, CLIEnv{Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(k string) string { return map[string]string{apiKeyVar: sandbox.DemoAPIKey}[k] }})
		if code == exitUsage || !strings.Contains(stderr.String(), "quote id -") {
			t.Errorf("%s, as %s runs it: exit %d\n%s%s", line, name, code, stdout.String(), stderr.String())
		}
	}
	if ran == 0 {
		t.Skip("no POSIX shell")
	}
}

// asShellSplits runs line, a command svcwallet printed to run next, with
// the words sh splits it into, as a person who pastes it into a shell runs
// it; vars are its environment.
func asShellSplits(t *testing.T, line string, vars map[string]string) depositResult {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	out, err := exec.Command(sh, "-c", `svcwallet() { for a in "$@"; do printf '%s\0' "$a"; done; }; `+line).Output()
	if err != nil {
		t.Fatal(err)
	}
	return runCLI("", vars, strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")...)
}
