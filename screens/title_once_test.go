package screens

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
)

// TestTitleAppearsOnce walks the whole console's golden states: each title
// is in the top bar, and the body does not repeat it as a heading. The
// builder, status and bridge-change screens are walked in their packages.
func TestTitleAppearsOnce(t *testing.T) {
	consoleTitles := map[string]string{
		"login_apikey": "Log in", "login_wallet_error": "Log in",
		"home": "Home", "home_subaccount": "Home",
		"deposit_list": "Deposit addresses", "deposit_qr": "Deposit addresses", "deposit_nochain": "Deposit addresses",
		"withdraw_route":       "Withdraw: route",
		"withdraw_destination": "Withdraw: destination", "withdraw_lookalike": "Withdraw: destination",
		"withdraw_quote":  "Withdraw: quote",
		"withdraw_review": "Withdraw: review and sign",
	}
	for _, st := range consoleStates {
		t.Run(st.name, func(t *testing.T) {
			title, ok := consoleTitles[st.name]
			if !ok {
				t.Fatalf("no title known for the state %s: add it here", st.name)
			}
			c := newConsole(t, 120, 40, screentest.ConsoleOpts{})
			st.reach(c)
			screentest.RequireTitleOnce(t, c.View(), title)
		})
	}
}
