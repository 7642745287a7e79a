package withdrawal_test

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/config"
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

// TestSignQuestionStandsAlone: the question that signs names what is paid
// and received, the whole destination and its chain, and the environment
// when it is not production: read alone, it says what its yes does.
func TestSignQuestionStandsAlone(t *testing.T) {
	d := decimal.RequireFromString
	o := withdrawal.Order{Choice: withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDT", ToAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
		Route: exchange.WithdrawalRoute{Chain: "ARBITRUM"}}, Quote: exchange.Quote{PayAmount: d("25"), ReceiveAmount: d("24.5")}}
	const head = "Sign and withdraw 25 USDT (24.5 USDT received) to %s on ARBITRUM"
	for _, tc := range []struct {
		env  config.Environment
		want string
	}{
		{config.Environment{Name: "production", ChainID: config.ProductionChainID}, head + "?"},
		{config.Environment{Name: "testnet", ChainID: 326}, head + ", in environment testnet?"},
		{config.Environment{Name: config.SandboxEnv, ChainID: config.ProductionChainID}, head + ", in environment sandbox?"},
	} {
		if got, want := o.SignQuestion(tc.env), fmt.Sprintf(tc.want, o.Choice.ToAddress); got != want {
			t.Errorf("%s: the question says %q, want %q", tc.env.Name, got, want)
		}
	}
}

// TestLossQuestionStandsAlone: the second question names the loss, in its
// token and its share of the amount; a converted payout's, how it is
// valued, as every other line that says it does: one token's number is
// never taken from another's unsaid (a loss that is the fee alone needs
// no valuing); the brief one its share.
func TestLossQuestionStandsAlone(t *testing.T) {
	d := decimal.RequireFromString
	for _, tc := range []struct {
		loss withdrawal.Loss
		want string
	}{
		{lossOf("1.6", "0.1", "USDT"), "You lose 1.5 USDT, 93.8% of the amount, to fees. Withdraw all the same?"},
		{lossOf("1.6", "0.1", "USDC"), "You lose 1.5 USDT (with 1 USDC valued at 1 USDT), 93.8% of the amount, to fees. Withdraw all the same?"},
		{withdrawal.Order{Choice: withdrawal.Choice{TokenIn: "USDT", TokenOut: "USDC"}, Quote: exchange.Quote{PayAmount: d("1.6"), ReceiveAmount: d("0.10002"), Fee: d("1.5")}}.Loss(),
			"You lose 1.5 USDT, 93.8% of the amount, to fees. Withdraw all the same?"},
	} {
		if got := tc.loss.Question(); got != tc.want {
			t.Errorf("the loss question says %q, want %q", got, tc.want)
		}
	}
	if got, want := lossOf("1.6", "0.1", "USDT").QuestionBrief(), "93.8% goes to fees. Withdraw all the same?"; got != want {
		t.Errorf("the brief loss question says %q, want %q", got, want)
	}
}
