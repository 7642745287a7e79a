package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

type depositResult struct {
	code           int
	stdout, stderr string
}

// depositCmd runs `svcwallet args...` through the real dispatch with vars as
// the whole environment. The user's config directory is never read.
func depositCmd(t *testing.T, vars map[string]string, args ...string) depositResult {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	return runCLI("", vars, args...)
}

// runCLI runs svcwallet args with stdin and vars as its environment, as
// this process's user and folders.
func runCLI(stdin string, vars map[string]string, args ...string) depositResult {
	var out, errOut bytes.Buffer
	code := Run(args, CLIEnv{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return vars[k] }})
	return depositResult{code, out.String(), errOut.String()}
}

// writeConfig writes the config file path with one environment, name, on
// the sandbox's chain: its API and market-data hosts at url, its login at
// auth (url, unless a test puts something in front of the login alone);
// the default environment (default_env) when def.
func writeConfig(t *testing.T, path string, def bool, name, auth, url string) {
	t.Helper()
	cfg := fmt.Sprintf("[env.%s]\nauth_url = %q\nbase_url = %q\nmarket_data_url = %q\nchain_id = %d\n", name, auth, url, url, sandbox.DefaultChainID)
	if def {
		cfg = fmt.Sprintf("default_env = %q\n", name) + cfg
	}
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

// localConfig writes a config whose default environment "local" is a
// sandbox served by this test, and returns its path and the sandbox.
func localConfig(t *testing.T) (string, *sandbox.Server) {
	t.Helper()
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	path := filepath.Join(t.TempDir(), "config.toml")
	writeConfig(t, path, true, "local", srv.URL, srv.URL)
	return path, srv
}

func (r depositResult) want(t *testing.T, code int, stdout, stderr []string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	for _, s := range stdout {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
		}
	}
	for _, s := range stderr {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
		}
	}
	if code != 0 {
		if r.stdout != "" {
			t.Errorf("a failure printed on stdout: %q", r.stdout)
		}
		if lines := strings.Split(strings.TrimSpace(r.stderr), "\n"); code == 1 && len(lines) != 1 {
			t.Errorf("a service error should be one line, got:\n%s", r.stderr)
		}
	}
}

// TestDepositSandboxTable: --env sandbox runs the embedded sandbox with its
// demo key and prints every chain, its address or "not provisioned", and
// each token's contract; on stderr, the command that provisions one.
func TestDepositSandboxTable(t *testing.T) {
	r := depositCmd(t, nil, "deposit", "--env", "sandbox")
	r.want(t, 0, []string{
		"CHAIN     CHAIN ID  DEPOSIT ADDRESS",
		"ARBITRUM  42161     0xD20300C35aA29C7b0498bA5739272D3A2F8B76c1  USDT   0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9",
		"TRON      tron      TV7eVzcbRciLaTqfyMo8fbkvVTQmEdaAGQ",
		"SOLANA    solana    not provisioned",
		"USDC   EPjFWJd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
	}, []string{"SOLANA has no deposit address yet: svcwallet deposit generate SOLANA --env sandbox provisions one."})
	if n := strings.Count(r.stdout, "\n"); n != 15 {
		t.Errorf("%d lines, want a header and two per chain (15):\n%s", n, r.stdout)
	}
}

// TestDepositJSONWithConfig: the default environment of the config, the key
// from the variable (X-API-Key mode), JSON out.
func TestDepositJSONWithConfig(t *testing.T) {
	cfg, _ := localConfig(t)
	r := depositCmd(t, map[string]string{apiKeyVar: sandbox.DemoAPIKey}, "deposit", "--config", cfg, "--json")
	r.want(t, 0, nil, nil)
	var got exchange.DepositAddresses
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if len(got.Chains) != 7 || got.Chains[6].Chain != "SOLANA" || got.Chains[6].DepositAddress != "" {
		t.Errorf("chains: %+v", got.Chains)
	}
}

// TestDepositGenerate: flags after the chain, a lower-case chain name, and
// the same address on a repeat.
func TestDepositGenerate(t *testing.T) {
	cfg, _ := localConfig(t)
	key := map[string]string{apiKeyVar: sandbox.DemoAPIKey}
	r := depositCmd(t, key, "deposit", "generate", "solana", "--config", cfg, "--json")
	r.want(t, 0, nil, nil)
	var info exchange.ChainInfo
	if err := json.Unmarshal([]byte(r.stdout), &info); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	if info.Chain != "SOLANA" || info.DepositAddress == "" {
		t.Fatalf("generated: %+v", info)
	}
	again := depositCmd(t, key, "deposit", "--config", cfg, "generate", "SOLANA")
	again.want(t, 0, []string{"SOLANA  solana    " + info.DepositAddress}, nil)
	list := depositCmd(t, key, "deposit", "--config", cfg)
	list.want(t, 0, []string{"SOLANA    solana    " + info.DepositAddress}, nil)
}

// TestDepositProviderUnreachable: empty stablecoin contracts are explained.
func TestDepositProviderUnreachable(t *testing.T) {
	cfg, srv := localConfig(t)
	srv.Exchange.SetProviderReachable(false)
	r := depositCmd(t, map[string]string{apiKeyVar: sandbox.DemoAPIKey}, "deposit", "--config", cfg)
	r.want(t, 0, []string{"USDT   unknown: provider unreachable"}, nil)
	if strings.Contains(r.stdout, "0xFd086bC7") {
		t.Errorf("contracts shown while the provider is unreachable:\n%s", r.stdout)
	}
}

// TestDepositErrors: one line on stderr, 1 for what the service refused, 2
// for what the user must fix on the command line, 5 for a login that
// failed (the API key refused, or no answer) as every command says it; the
// key is never echoed.
func TestDepositErrors(t *testing.T) {
	cfg, _ := localConfig(t)
	const secret = "sk-live-7f3a9c2e41d8"
	emptyCfg := filepath.Join(t.TempDir(), "empty.toml")
	if err := os.WriteFile(emptyCfg, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
		code int
		says string
	}{
		{"wrong key", map[string]string{apiKeyVar: secret}, []string{"--config", cfg}, 5, "the API key in $SVCWALLET_API_KEY was refused: check that it is the account's for environment local"},
		// A key refused unsent is a failed login too, said as status says it: exit 1 read as the service's refusal.
		{"key with a BOM", map[string]string{apiKeyVar: "\ufeff" + secret}, []string{"--config", cfg}, 5, "login to environment local failed: the API key in $SVCWALLET_API_KEY holds an invisible character U+FEFF at position 1"},
		{"private key as the API key", map[string]string{apiKeyVar: sandbox.DemoPrivateKey}, []string{"--config", cfg}, 5, "login to environment local failed: the API key given holds the shape of a private key"},
		{"no chain account", map[string]string{apiKeyVar: sandbox.NoChainAPIKey}, []string{"--config", cfg}, 1, "no chain account"},
		{"unknown chain", map[string]string{apiKeyVar: sandbox.DemoAPIKey}, []string{"generate", "DOGE", "--config", cfg}, 2, `"DOGE" is not a deposit chain of local; its chains are: ARBITRUM`},
		{"unreachable", map[string]string{apiKeyVar: sandbox.DemoAPIKey}, []string{"--config", writeDeadConfig(t)}, 5, "login to environment dead failed: Cannot reach"},
		{"no key", nil, []string{"--config", cfg}, 2, "set " + apiKeyVar},
		{"no environment: the sandbox, said", nil, []string{"--config", emptyCfg}, 0, "receive nothing real"},
		{"unknown environment", map[string]string{apiKeyVar: secret}, []string{"--config", cfg, "--env", "prod"}, 2, `no environment "prod"`},
		{"generate without chain", nil, []string{"generate", "--env", "sandbox"}, 2, "one chain name"},
		{"two chains", nil, []string{"generate", "SOLANA", "TRON", "--env", "sandbox"}, 2, "one chain name"},
		{"unknown word", nil, []string{"list", "--env", "sandbox"}, 2, `unknown command "list"; the commands are: generate`},
		{"unknown flag", nil, []string{"--csv", "--env", "sandbox"}, 2, "-csv"},
		{"missing config", nil, []string{"--config", filepath.Join(t.TempDir(), "none.toml"), "--env", "sandbox"}, 1, "none.toml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := depositCmd(t, tc.vars, append([]string{"deposit"}, tc.args...)...)
			r.want(t, tc.code, nil, []string{tc.says})
			if strings.Contains(r.stdout+r.stderr, secret) {
				t.Errorf("the API key was printed:\n%s%s", r.stdout, r.stderr)
			}
		})
	}
}

// writeDeadConfig is a config whose environment listens nowhere.
func writeDeadConfig(t *testing.T) string {
	t.Helper()
	srv, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	url := srv.URL
	srv.Close() // the port is now closed: connection refused
	path := filepath.Join(t.TempDir(), "dead.toml")
	writeConfig(t, path, true, "dead", url, url)
	return path
}

func TestDepositHelp(t *testing.T) {
	r := depositCmd(t, nil, "deposit", "--help")
	r.want(t, 0, []string{"svcwallet deposit <command>", "generate CHAIN", apiKeyVar, "Exit status"}, nil)
	u := depositCmd(t, nil, "help")
	u.want(t, 0, []string{"\n  deposit ", "status ID..."}, nil)
}

// --debug (or $SVCWALLET_DEBUG) logs each request, its status and timing to
// stderr, and never the API key; stdout keeps only the answer.
func TestDebugLogsRequestsWithoutSecrets(t *testing.T) {
	cfg, _ := localConfig(t)
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
	}{
		{"--debug after the command", map[string]string{apiKeyVar: sandbox.DemoAPIKey}, []string{"deposit", "--json", "--config", cfg, "--debug"}},
		{"--debug first", map[string]string{apiKeyVar: sandbox.DemoAPIKey}, []string{"--debug", "deposit", "--json", "--config", cfg}},
		{"SVCWALLET_DEBUG", map[string]string{apiKeyVar: sandbox.DemoAPIKey, debugVar: "1"}, []string{"deposit", "--json", "--config", cfg}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := depositCmd(t, tc.vars, tc.args...)
			if r.code != 0 || !strings.Contains(r.stderr, "msg=request") || !strings.Contains(r.stderr, "status=200") ||
				!strings.Contains(r.stderr, "duration=") || !strings.Contains(r.stderr, "path=/api/v1/deposit/addresses") {
				t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
			}
			if strings.Contains(r.stdout+r.stderr, sandbox.DemoAPIKey) {
				t.Fatal("the debug log shows the API key")
			}
			if !json.Valid([]byte(r.stdout)) {
				t.Fatalf("the log leaked into stdout:\n%s", r.stdout)
			}
		})
	}
	r := depositCmd(t, map[string]string{apiKeyVar: sandbox.DemoAPIKey}, "deposit", "--json", "--config", cfg)
	if r.stderr != "" {
		t.Errorf("without --debug nothing is logged: %q", r.stderr)
	}
}

// TestDepositByWalletLogin: without an API key, deposit logs in by wallet
// signature with $SVCWALLET_PRIVATE_KEY and lists through the session.
func TestDepositByWalletLogin(t *testing.T) {
	cfg, _ := localConfig(t)
	r := depositCmd(t, map[string]string{signer.KeyEnvVar: sandbox.DemoPrivateKey}, "deposit", "--config", cfg, "--json")
	r.want(t, 0, nil, nil)
	var got exchange.DepositAddresses
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || len(got.Chains) != 7 {
		t.Fatalf("chains %+v (%v):\n%s", got.Chains, err, r.stdout)
	}
	depositCmd(t, nil, "deposit", "--config", cfg).want(t, 2, nil, []string{"or " + signer.KeyEnvVar})
}
