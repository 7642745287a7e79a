package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestLoginFailureOneWay (review item 2): every command that logs in says a
// login that failed the same way, through loginFailed: one line
// "svcwallet CMD: <why>" on stderr, or with --json the error object with
// code "login", and exit 5 — never 1, which status uses for "not paid out"
// and withdraw for "refused, nothing paid". A refused API key, and a
// service that cannot be reached, alike.
func TestLoginFailureOneWay(t *testing.T) {
	r := newJournalingRig(t)
	r.defaultConfigWithoutDefaultEnv(t)
	dead := writeDeadConfig(t)
	file := filepath.Join(t.TempDir(), "transfer.json")
	if err := os.WriteFile(file, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sig := "0x" + strings.Repeat("11", 64) + "1b"
	commands := []struct{ cmd, args string }{
		{"svcwallet status", "status q-abc"},
		{"svcwallet withdraw", "withdraw --chain arbitrum --to " + sandbox.DestCompleted + " --amount 25 --yes"},
		{"svcwallet withdraw", "withdraw resume q-abc"},
		{"svcwallet withdraw", "withdraw submit " + file + " --signature " + sig},
		{"svcwallet deposit", "deposit"},
		{"svcwallet deposit generate", "deposit generate SOLANA"},
		{"svcwallet history", "history --refresh"},
	}
	for _, tc := range []struct {
		name, where string
		vars        map[string]string
		says        string
	}{
		{"refused API key", "--config " + r.config, map[string]string{apiKeyVar: "wrong"},
			"the API key in $SVCWALLET_API_KEY was refused: check that it is the account's for environment local"},
		{"refused wallet", "--config " + r.config, map[string]string{apiKeyVar: "", "SVCWALLET_PRIVATE_KEY": builderKey},
			"(from $SVCWALLET_PRIVATE_KEY) was refused by environment local: Wallet not registered"},
		{"unreachable", "--config " + dead, map[string]string{apiKeyVar: sandbox.DemoAPIKey},
			"login to environment dead failed: Cannot reach"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range commands {
				if tc.name == "refused wallet" && strings.HasPrefix(c.args, "withdraw submit") {
					continue // submit logs in with the API key alone
				}
				res := r.runPrinted(tc.vars, "svcwallet "+c.args+" "+tc.where)
				if res.code != exitError || res.stdout != "" || !strings.HasPrefix(res.stderr, c.cmd+": ") ||
					!strings.Contains(res.stderr, tc.says) || strings.Count(res.stderr, "\n") != 1 {
					t.Errorf("%s: exit %d, want 5 and one line saying %q:\n%s%s", c.args, res.code, tc.says, res.stdout, res.stderr)
				}
				res = r.runPrinted(tc.vars, "svcwallet "+c.args+" "+tc.where+" --json")
				var e errorJSON
				if err := json.Unmarshal([]byte(res.stdout), &e); err != nil || res.code != exitError || e.Error.Code != codeLogin ||
					e.Error.Exit != exitError || !strings.Contains(e.Error.Message, tc.says) {
					t.Errorf("%s --json: exit %d: %s (%v)", c.args, res.code, res.stdout, err)
				}
			}
		})
	}
	if n := r.withdraws.Load(); n != 0 {
		t.Errorf("%d withdraw requests", n)
	}
}

// TestLoginNotSignedOneWay: a wallet login the key source refuses to sign
// is a login that failed too: exit 5, said the same way by each command.
func TestLoginNotSignedOneWay(t *testing.T) {
	r := newJournalingRig(t)
	f := exchangetest.NewFakeClef(t)
	f.Deny = true
	want := "the wallet login was not signed: clef at " + f.URL + " refused to sign (request denied); nothing was sent\n"
	for _, args := range [][]string{
		{"status", "q-abc"},
		append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...),
		{"deposit"},
		{"history", "--refresh"},
	} {
		res := r.runKeys(keyRun{vars: noKeys, config: clefConfig(f)}, args...)
		if res.code != exitError || !strings.HasSuffix(res.stderr, "svcwallet "+args[0]+": "+want) {
			t.Errorf("%s: exit %d:\n%s", args[0], res.code, res.stderr)
		}
	}
}
