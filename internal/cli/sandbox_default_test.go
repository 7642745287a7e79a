package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestSandboxByDefaultIsSaid (issue 35 item 11): with a config that
// defines environments but no default_env, a command runs on the embedded
// sandbox as before, but says so in one line on stderr, naming the
// config's environments and how to choose one; doctor warns. Chosen on
// purpose (--env sandbox), or without a config, nothing is said.
func TestSandboxByDefaultIsSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	cfg := "[env.staging]\nauth_url = \"https://a.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 327\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r := depositCmd(t, nil, "status", "q-12345678", "--config", path)
	said := "no environment chosen, so this runs on a throwaway embedded sandbox that knows none of the withdrawals of staging; choose one with --env NAME"
	if r.code != exitNotFound || !strings.Contains(r.stderr, said) || strings.Count(r.stderr, said) != 1 {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	r = depositCmd(t, nil, "status", "q-12345678", "--config", path, "--env", "sandbox")
	if strings.Contains(r.stderr, "no environment chosen") {
		t.Errorf("--env sandbox said:\n%s", r.stderr)
	}
	r = depositCmd(t, nil, "status", "q-12345678", "--config", filepath.Join(t.TempDir(), "none.toml"))
	if strings.Contains(r.stderr, "no environment chosen") {
		t.Errorf("without a config:\n%s", r.stderr)
	}
	r = depositCmd(t, nil, "doctor", "--config", path)
	if !strings.Contains(r.stdout, "warning  environment") || !strings.Contains(r.stdout, "fix: set default_env in the config to staging, or give --env NAME") {
		t.Errorf("doctor:\n%s", r.stdout)
	}
	// Two environments: the fix offers either.
	if err := os.WriteFile(path, []byte(cfg+strings.Replace(cfg, "staging", "prod", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := depositCmd(t, nil, "doctor", "--config", path); !strings.Contains(r.stdout, "fix: set default_env in the config to one of prod, staging, or give --env NAME") {
		t.Errorf("doctor with two environments:\n%s", r.stdout)
	}
}

// TestNotFoundSaysWhatNext: an id the service does not know says what to
// do next (check it, or look it up on the account that made it), on
// stderr and in the JSON error.
func TestNotFoundSaysWhatNext(t *testing.T) {
	next := "check the id, or look it up logged in to the account and environment that made it"
	r := depositCmd(t, nil, "status", "q-12345678")
	if r.code != exitNotFound || !strings.Contains(r.stderr, next) {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	r = depositCmd(t, nil, "status", "q-12345678", "--json")
	if r.code != exitNotFound || !strings.Contains(r.stdout, next) {
		t.Errorf("--json: exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestSandboxRefusalsReachable: on the embedded sandbox both refusals of
// an amount are reached by hand as docs/sandbox.md says: the demo
// account's 6,000 USDT is over its daily limit (at the quote), and the
// no-chain account's 200 USDT over its balance of 100.
func TestSandboxRefusalsReachable(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	to := []string{"withdraw", "--env", "sandbox", "--chain", "arbitrum", "--to", sandbox.DestCompleted, "--yes", "--amount"}
	r := depositCmd(t, map[string]string{apiKeyVar: sandbox.DemoAPIKey}, append(to, "6000")...)
	if r.code != exitFailed || !strings.Contains(r.stderr, "over the daily withdrawal limit") {
		t.Errorf("6000 from the demo account: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	r = depositCmd(t, map[string]string{apiKeyVar: sandbox.NoChainAPIKey, signer.KeyEnvVar: sandbox.NoChainPrivateKey}, append(to, "200")...)
	if r.code != exitFailed || !strings.Contains(r.stderr, "Insufficient balance") {
		t.Errorf("200 from the no-chain account: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}
