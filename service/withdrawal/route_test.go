package withdrawal

import (
	"errors"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestRouteTo: a chain is found in any case, spaces around it ignored; one
// the routes lack is an *UnknownChainError naming those they give, and no
// route at all says so.
func TestRouteTo(t *testing.T) {
	info := exchange.WithdrawalInfo{Route: map[string][]exchange.WithdrawalRoute{exchange.TokenUSDT: {{Chain: "ARBITRUM"}, {Chain: "BASE"}}}}
	if rt, err := RouteTo(info, exchange.TokenUSDT, " base "); err != nil || rt.Chain != "BASE" {
		t.Errorf("base: %+v, %v", rt, err)
	}
	_, err := RouteTo(info, exchange.TokenUSDT, "dogecoin")
	var unknown *UnknownChainError
	if !errors.As(err, &unknown) || err.Error() != `"dogecoin" is not a USDT withdrawal chain; the chains are: ARBITRUM, BASE` {
		t.Errorf("dogecoin: %v", err)
	}
	// Shown escaped: cleaned, base with a zero-width space read "base"
	// beside the BASE the chains name.
	if _, err := RouteTo(info, exchange.TokenUSDT, "base\u200b"); err == nil || err.Error() != `"base\u200b" is not a USDT withdrawal chain; the chains are: ARBITRUM, BASE` {
		t.Errorf("base and a zero-width space: %v", err)
	}
	if _, err := RouteTo(info, "USDC", "BASE"); err == nil || err.Error() != "the service offers no USDC withdrawal route now" {
		t.Errorf("no USDC route: %v", err)
	}
}
