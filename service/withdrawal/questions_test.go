package withdrawal_test

import (
	"fmt"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestChainQuestionNamesTheChains: the chain's question names the
// chains the routes have, so the first answer can be right; a
// deployment's long list (more than 8) is left to the refusal, which
// names them all, and the question gives an example.
func TestChainQuestionNamesTheChains(t *testing.T) {
	routes := func(n int) exchange.WithdrawalInfo {
		info := exchange.WithdrawalInfo{Route: map[string][]exchange.WithdrawalRoute{}}
		for i := range n {
			info.Route[exchange.TokenUSDT] = append(info.Route[exchange.TokenUSDT], exchange.WithdrawalRoute{Chain: fmt.Sprintf("CHAIN%d", i)})
		}
		return info
	}
	for n, want := range map[int]string{1: "CHAIN0", 3: "CHAIN0, CHAIN1 or CHAIN2", 8: "CHAIN0, CHAIN1, CHAIN2, CHAIN3, CHAIN4, CHAIN5, CHAIN6 or CHAIN7", 9: "such as ARBITRUM", 0: "such as ARBITRUM"} {
		if got := withdrawal.ChainQuestion(routes(n), exchange.TokenUSDT).How; got != want {
			t.Errorf("%d chains: the question says %q, want %q", n, got, want)
		}
	}
}
