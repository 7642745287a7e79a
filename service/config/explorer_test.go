package config_test

import (
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

func TestExplorerTxURL(t *testing.T) {
	const evm = "0x5f0c9e1b7a3d4c2e8f6a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"
	prod := config.Environment{Name: "production", ChainID: config.ProductionChainID}
	bare := config.Environment{Name: "staging", ChainID: 327} // no explorer_tx table
	custom := config.Environment{Name: "testnet", ChainID: 326, ExplorerTx: map[string]string{
		"base_sepolia": "https://sepolia.basescan.org/tx/{hash}",
		"ARBITRUM":     "", // turned off
		"BSC":          "https://bscscan.example/tx/",
		"POLYGON":      "http://polygonscan.example/tx/{hash}",
		"KAIA":         "http://127.0.0.1:9000/tx/{hash}",
	}}
	for _, tc := range []struct {
		env         config.Environment
		chain, hash string
		want        string
	}{
		{prod, "ARBITRUM", evm, "https://arbiscan.io/tx/" + evm},
		{prod, "tron", "a1b2c3", "https://tronscan.org/#/transaction/a1b2c3"},
		{prod, "SOLANA", "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW", "https://solscan.io/tx/5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"},
		{prod, "SOMECHAIN", evm, ""},
		{prod, "ARBITRUM", "0xabc/../../evil", ""},
		{prod, "ARBITRUM", "", ""},
		{config.SandboxEnvironment("http://127.0.0.1:1", 327), "ARBITRUM", evm, ""},
		{custom, "BASE_SEPOLIA", "0xab", "https://sepolia.basescan.org/tx/0xab"},
		{custom, "ARBITRUM", evm, ""},
		{custom, "BSC", evm, ""},     // no {hash}
		{custom, "POLYGON", evm, ""}, // http off loopback
		{custom, "KAIA", "0xab", "http://127.0.0.1:9000/tx/0xab"},
		{custom, "BASE", "0xab", ""}, // mainnet explorers are production's only
		{bare, "ARBITRUM", evm, ""},
		{bare, "TRON", "a1b2c3", ""},
		{config.Environment{Name: "prod-eu", ChainID: config.ProductionChainID, ExplorerTx: map[string]string{"KAIA": "https://kaia.example/tx/{hash}"}},
			"BASE", "0xab", "https://basescan.org/tx/0xab"},
	} {
		if got := tc.env.ExplorerTxURL(tc.chain, tc.hash); got != tc.want {
			t.Errorf("%s %s %q: %q, want %q", tc.env.Name, tc.chain, tc.hash, got, tc.want)
		}
	}
}

// TestElsewhere: a question that moves money names every environment but
// production, which is the production chain id and not the embedded
// sandbox, whatever its name: a signature for that chain is one for real
// funds.
func TestElsewhere(t *testing.T) {
	for _, tc := range []struct {
		env  config.Environment
		want string
	}{
		{config.Environment{Name: "production", ChainID: config.ProductionChainID}, ""},
		{config.Environment{Name: "mainnet", ChainID: config.ProductionChainID}, ""},
		{config.Environment{Name: "testnet", ChainID: 326}, ", in environment testnet"},
		{config.Environment{Name: "production", ChainID: 327}, ", in environment production"},
		{config.Environment{Name: config.SandboxEnv, ChainID: config.ProductionChainID}, ", in environment sandbox"},
	} {
		if got := tc.env.Elsewhere(); got != tc.want {
			t.Errorf("%s on chain id %d: %q, want %q", tc.env.Name, tc.env.ChainID, got, tc.want)
		}
	}
}
