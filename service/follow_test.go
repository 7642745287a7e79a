package service

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestPollDelay: no failure, the interval; after failures, a wait inside
// [interval, 30 s] whose ceiling doubles per failure, whatever the jitter.
func TestPollDelay(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, interval := range []time.Duration{time.Second, 3 * time.Second, 20 * time.Second, 45 * time.Second} {
		if d := PollDelay(interval, 0, rng.Int64N); d != interval {
			t.Errorf("interval %s, no failure: %s", interval, d)
		}
		ceiling := max(MaxPollBackoff, interval)
		for failures := 1; failures <= 70; failures++ {
			top := min(interval<<min(failures, 20), ceiling)
			if got := PollDelay(interval, failures, func(n int64) int64 { return n - 1 }); got != top {
				t.Errorf("interval %s, %d failures, highest jitter: %s, want %s", interval, failures, got, top)
			}
			for range 50 {
				d := PollDelay(interval, failures, rng.Int64N)
				if d < interval || d > ceiling || d < top/2 {
					t.Fatalf("interval %s, %d failures: %s outside [%s, %s]", interval, failures, d, max(interval, top/2), top)
				}
			}
		}
	}
}

func TestExplorerTxURL(t *testing.T) {
	const evm = "0x5f0c9e1b7a3d4c2e8f6a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"
	prod := Environment{Name: "production", ChainID: ProductionChainID}
	bare := Environment{Name: "staging", ChainID: 327} // no explorer_tx table
	custom := Environment{Name: "testnet", ChainID: 326, ExplorerTx: map[string]string{
		"base_sepolia": "https://sepolia.basescan.org/tx/{hash}",
		"ARBITRUM":     "", // turned off
		"BSC":          "https://bscscan.example/tx/",
		"POLYGON":      "http://polygonscan.example/tx/{hash}",
		"KAIA":         "http://127.0.0.1:9000/tx/{hash}",
	}}
	for _, tc := range []struct {
		env         Environment
		chain, hash string
		want        string
	}{
		{prod, "ARBITRUM", evm, "https://arbiscan.io/tx/" + evm},
		{prod, "tron", "a1b2c3", "https://tronscan.org/#/transaction/a1b2c3"},
		{prod, "SOLANA", "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW", "https://solscan.io/tx/5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"},
		{prod, "SOMECHAIN", evm, ""},
		{prod, "ARBITRUM", "0xabc/../../evil", ""},
		{prod, "ARBITRUM", "", ""},
		{SandboxEnvironment("http://127.0.0.1:1", 327), "ARBITRUM", evm, ""},
		{custom, "BASE_SEPOLIA", "0xab", "https://sepolia.basescan.org/tx/0xab"},
		{custom, "ARBITRUM", evm, ""},
		{custom, "BSC", evm, ""},     // no {hash}
		{custom, "POLYGON", evm, ""}, // http off loopback
		{custom, "KAIA", "0xab", "http://127.0.0.1:9000/tx/0xab"},
		{custom, "BASE", "0xab", ""}, // mainnet explorers are production's only
		{bare, "ARBITRUM", evm, ""},
		{bare, "TRON", "a1b2c3", ""},
		{Environment{Name: "prod-eu", ChainID: ProductionChainID, ExplorerTx: map[string]string{"KAIA": "https://kaia.example/tx/{hash}"}},
			"BASE", "0xab", "https://basescan.org/tx/0xab"},
	} {
		if got := tc.env.ExplorerTxURL(tc.chain, tc.hash); got != tc.want {
			t.Errorf("%s %s %q: %q, want %q", tc.env.Name, tc.chain, tc.hash, got, tc.want)
		}
	}
}
