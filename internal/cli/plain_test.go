package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestPlainFromAPipeSignsNothing (issue 33 item 2): `TERM=dumb svcwallet <
// answers` logs in, asks and reviews, but a piped y signs nothing: plain
// mode says the command to run instead and ends with exit 2, as withdraw
// without --yes does off a terminal.
func TestPlainFromAPipeSignsNothing(t *testing.T) {
	home := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "TMPDIR"} {
		t.Setenv(v, home)
	}
	answers := strings.Join([]string{"API key", sandbox.DemoAPIKey, "Withdraw USDT", "ARBITRUM", "USDT", sandbox.DestCompleted, "25", "2", "y", "quit"}, "\n") + "\n"
	var stdout, stderr strings.Builder
	code := Run(nil, CLIEnv{Stdin: strings.NewReader(answers), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return map[string]string{"TERM": "dumb"}[k] }})
	out := stdout.String()
	if code != exitUsage || !strings.Contains(out, "You receive: ") || strings.Contains(out, "Withdrawal accepted") || strings.Contains(out, "[y/n]") ||
		!strings.Contains(out, "run: svcwallet withdraw --chain ARBITRUM --to "+sandbox.DestCompleted+" --amount 25 --max-fee 2 --yes --env sandbox\n") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, stderr.String())
	}
}
