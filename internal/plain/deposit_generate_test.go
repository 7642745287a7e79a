package plain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestGenerateHeldToTheListing: the listing gives SYNTH_0001, a staging
// chain with no address yet, chain id 1000000; generating answers chain id
// 31337. Plain mode refuses that address (Client.GenerateFor), as the
// console and deposit generate do: the network it is on is in doubt.
func TestGenerateHeldToTheListing(t *testing.T) {
	r := newRigWith(t, sandbox.Options{ExtraChains: 1}, func(url string) config.Environment {
		return config.SandboxEnvironment(url, sandbox.DefaultChainID)
	})
	rewrite := func(path string, b []byte) []byte {
		switch path {
		case exchange.PathDepositAddresses:
			return bytes.Replace(b, []byte(`"chain":"SYNTH_0001","chain_id":"1000000","deposit_address":"0x`),
				[]byte(`"chain":"SYNTH_0001","chain_id":"1000000","deposit_address":"","x":"0x`), 1)
		case exchange.PathGenerateAddress:
			return bytes.Replace(b, []byte(`"chain_id":"1000000"`), []byte(`"chain_id":"31337"`), 1)
		}
		return b
	}
	r.rewrite.Store(&rewrite)
	out, err := r.run(steps(logIn, typed("Deposit addresses", "Generate an address for a chain without one", "SYNTH_0001", "Back home", "quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wants(t, out, "SYNTH_0001, chain id 1000000: not provisioned", "failed its check (the listing gives SYNTH_0001 chain id 1000000, and generating its address gave 31337)", "Do not deposit on it")
	if strings.Contains(out, "SYNTH_0001 deposit address ready") {
		t.Errorf("the generated address was given:\n%s", out)
	}
}
