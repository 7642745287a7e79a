package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestUnknownChainOneAnswer: deposit generate and withdraw --chain give
// one answer for a chain the environment does not have: a usage error
// (exit 2) naming the chains the service lists, before anything is
// provisioned or quoted; a name that cannot be a chain's is refused before
// any request at all (issue 28 item 16).
func TestUnknownChainOneAnswer(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.toml")
	// An environment no request can reach: an answer from it would be exit 5.
	nowhere := filepath.Join(t.TempDir(), "nowhere.toml")
	for path, body := range map[string]string{empty: "",
		nowhere: "[env.nowhere]\nauth_url = \"http://127.0.0.1:1\"\nbase_url = \"http://127.0.0.1:1\"\nmarket_data_url = \"http://127.0.0.1:1\"\nchain_id = 327\n"} {
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	withdraw := func(chain string) []string {
		return []string{"withdraw", "--chain", chain, "--to", sandbox.DestCompleted, "--amount", "25", "--dry-run"}
	}
	for _, tc := range []struct {
		name string
		args []string
		says string
	}{
		{"deposit generate", []string{"deposit", "generate", "dogecoin", "--env", "sandbox", "--config", empty},
			`"dogecoin" is not a deposit chain of sandbox; its chains are: ARBITRUM, BASE, BSC, KAIA, POLYGON, TRON, SOLANA`},
		{"withdraw", append(withdraw("dogecoin"), "--env", "sandbox", "--config", empty),
			`--chain "dogecoin" is not a USDT withdrawal chain of sandbox; its chains are: ARBITRUM, BASE, BSC`},
		{"deposit generate, no chain's name", []string{"deposit", "generate", "doge coin", "--env", "nowhere", "--config", nowhere},
			`"doge coin": a chain name is letters, digits and _`},
		{"withdraw, no chain's name", append(withdraw("doge/coin"), "--env", "nowhere", "--config", nowhere),
			`--chain "doge/coin": a chain name is letters, digits and _`},
		// What makes a name no chain's is shown escaped: cleaned, a bidi
		// override or zero-width space left "BASE", a name that passes,
		// and a look-alike letter read as the one it copies.
		{"deposit generate, an invisible character", []string{"deposit", "generate", "BASE\u202e", "--env", "nowhere", "--config", nowhere},
			`"BASE\u202e": a chain name is letters, digits and _`},
		{"withdraw, a look-alike letter", append(withdraw("\u0412ASE"), "--env", "nowhere", "--config", nowhere),
			`--chain "\u0412ASE": a chain name is letters, digits and _`},
		{"withdraw, a zero-width space", append(withdraw("base\u200b"), "--env", "nowhere", "--config", nowhere),
			`--chain "base\u200b": a chain name is letters, digits and _`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := depositCmd(t, map[string]string{apiKeyVar: sandbox.DemoAPIKey}, tc.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.says) {
				t.Errorf("exit %d, want %d saying %q\nstdout:\n%s\nstderr:\n%s", r.code, exitUsage, tc.says, r.stdout, r.stderr)
			}
		})
	}
}
