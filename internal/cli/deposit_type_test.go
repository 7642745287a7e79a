package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestCLIDepositChainTypeDisagrees: the service lists SOLANA with chain id
// 1 and TRON with chain id 56. deposit gives neither an address (REFUSED
// with the reason; in --json an empty deposit_address and address_problem);
// deposit generate SOLANA, answered with chain id 1 and an EVM address,
// exits 1 with the reason (an error, in --json too) and prints no address.
func TestCLIDepositChainTypeDisagrees(t *testing.T) {
	r := newStatusRig(t)
	r.rewrite.Store(onlyPath(exchange.PathDepositAddresses, func(b []byte) []byte {
		b = bytes.Replace(b, []byte(`"chain":"SOLANA","chain_id":"solana","deposit_address":""`),
			[]byte(`"chain":"SOLANA","chain_id":"1","deposit_address":"`+sandbox.DemoAddress+`"`), 1)
		return bytes.Replace(b, []byte(`"chain":"TRON","chain_id":"tron"`), []byte(`"chain":"TRON","chain_id":"56"`), 1)
	}))
	vars := map[string]string{apiKeyVar: sandbox.DemoAPIKey}
	res := depositCmd(t, vars, "deposit", "--config", r.config)
	for _, chain := range []string{"SOLANA", "TRON"} {
		line := lineWith(res.stdout, chain+" ")
		if res.code != 0 || !strings.Contains(line, "REFUSED, do not deposit: its name "+chain+" makes it") ||
			strings.Contains(line, sandbox.DemoAddress) || strings.Contains(line, sandbox.DestTron[:10]) {
			t.Errorf("%s: exit %d, line %q", chain, res.code, line)
		}
	}
	if lineWith(res.stdout, "BSC ") == "" || !strings.Contains(lineWith(res.stdout, "BSC "), "0x") {
		t.Errorf("the other chains lost their addresses:\n%s", res.stdout)
	}
	res = depositCmd(t, vars, "deposit", "--json", "--config", r.config)
	if res.code != 0 || strings.Count(res.stdout, `"address_problem": "its name `) != 2 || strings.Contains(res.stdout, `"deposit_address": "`+sandbox.DemoAddress) {
		t.Errorf("--json: exit %d:\n%s", res.code, res.stdout)
	}

	r.rewrite.Store(onlyPath(exchange.PathGenerateAddress, func(b []byte) []byte {
		var info map[string]any
		if err := json.Unmarshal(b, &info); err != nil {
			t.Errorf("generate answered %s", b)
		}
		info["chain_id"], info["deposit_address"] = "1", sandbox.DemoAddress
		b, _ = json.Marshal(info)
		return b
	}))
	for _, args := range [][]string{{"deposit", "generate", "SOLANA"}, {"deposit", "generate", "SOLANA", "--json"}} {
		res = depositCmd(t, vars, append(args, "--config", r.config)...)
		out := res.stdout + res.stderr
		if res.code != 1 || !strings.Contains(out, "makes it a Solana chain but its chain id 1 is an EVM chain's") ||
			strings.Contains(out, sandbox.DemoAddress) || strings.Contains(out, "deposit_address") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, res.code, res.stdout, res.stderr)
		}
	}
}
