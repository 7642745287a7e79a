package exchange

import "testing"

// TestDepositVerdict: one verdict on a deposit address for every face: an
// address that passed its check is deposited on, none yet is generated (and
// listed "not provisioned" in every face), and
// one that failed (or whose chain did) is refused in the listing's words.
func TestDepositVerdict(t *testing.T) {
	for _, tc := range []struct {
		ch     ChainInfo
		want   DepositVerdict
		listed string
	}{
		{ChainInfo{Chain: "ARBITRUM", DepositAddress: "0xabc"}, DepositOnIt, "0xabc"},
		{ChainInfo{Chain: "SOLANA"}, DepositGenerate, "not provisioned"},
		{ChainInfo{Chain: "TRON", RefusedAddress: "0xabc", AddressProblem: "not a valid Tron address"}, DepositRefused, "REFUSED, do not deposit: not a valid Tron address"},
		{ChainInfo{Chain: "SOLANA2", AddressProblem: "the chain id says EVM"}, DepositRefused, "REFUSED, do not deposit: the chain id says EVM"},
	} {
		if got := tc.ch.Verdict(); got != tc.want {
			t.Errorf("%s: verdict %d, want %d", tc.ch.Chain, got, tc.want)
		}
		if got := tc.ch.Listed(); got != tc.listed {
			t.Errorf("%s: listed %q, want %q", tc.ch.Chain, got, tc.listed)
		}
	}
}
