package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// embeddedSaid is what every money command says of the embedded sandbox.
const embeddedSaid = "the embedded test exchange: nothing real moves, and "

// TestMoneyCommandsNameWhere: withdraw, builder authorize and deposit
// generate start with the environment (name, base URL, chain id); on the
// embedded sandbox they say what it is (on stderr with --json), and their
// JSON carries env; a configured environment is named without those words
// (issue 27 item 4).
func TestMoneyCommandsNameWhere(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.toml")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	sb := func(args ...string) []string { return append(args, "--env", "sandbox", "--config", empty) }
	withdraw := sb("withdraw", "--chain", "ARBITRUM", "--amount", "25", "--to", sandbox.DestCompleted, "--dry-run")
	authorize := sb("builder", "authorize", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05",
		"--account", sandbox.DemoAddress, "--dry-run")
	for _, tc := range []struct {
		name string
		args []string
		ends string
	}{
		{"withdraw", withdraw, "its quote ids end with this command"},
		{"builder authorize", authorize, "its authorizations and API keys end with this command"},
	} {
		t.Run(tc.name+" text", func(t *testing.T) {
			r := depositCmd(t, nil, tc.args...)
			if r.code != 0 || !strings.HasPrefix(r.stdout, "Environment sandbox · http://127.0.0.1:") ||
				!strings.Contains(strings.SplitN(r.stdout, "\n", 3)[1], embeddedSaid+tc.ends) || !strings.Contains(r.stdout, "· chain id 327\n") {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
		})
		t.Run(tc.name+" json", func(t *testing.T) {
			r := depositCmd(t, nil, append(tc.args, "--json")...)
			var doc struct {
				Env     string `json:"env"`
				BaseURL string `json:"base_url"`
				ChainID uint64 `json:"env_chain_id"`
			}
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &doc) != nil || doc.Env != "sandbox" || doc.ChainID != 327 ||
				!strings.HasPrefix(doc.BaseURL, "http://127.0.0.1:") || !strings.Contains(r.stderr, "environment sandbox, "+embeddedSaid+tc.ends) {
				t.Fatalf("exit %d, %+v\nstdout:\n%s\nstderr:\n%s", r.code, doc, r.stdout, r.stderr)
			}
		})
	}
	t.Run("deposit generate", func(t *testing.T) {
		r := depositCmd(t, nil, sb("deposit", "generate", "SOLANA")...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "Environment sandbox · http://127.0.0.1:") || !strings.Contains(r.stderr, "the embedded test exchange") {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
		r = depositCmd(t, nil, sb("deposit", "generate", "SOLANA", "--json")...)
		if r.code != 0 || !strings.Contains(r.stdout, `"env": "sandbox"`) {
			t.Fatalf("exit %d\nstdout:\n%s", r.code, r.stdout)
		}
	})
	t.Run("a configured environment", func(t *testing.T) {
		withdrawState(t)
		r := newStatusRig(t)
		res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--dry-run")...)
		res.want(t, 0)
		if !strings.HasPrefix(res.stdout, "Environment local · http://127.0.0.1:") || strings.Contains(res.stdout+res.stderr, "embedded") {
			t.Fatalf("stdout:\n%s\nstderr:\n%s", res.stdout, res.stderr)
		}
	})
}
