package screens

import (
	"strings"
	"testing"

	"svcwallet/service"
)

// TestExplainKeepsServiceReason: the fixed, actionable text stays and the
// service's own reason follows it; nothing is added when there is none.
func TestExplainKeepsServiceReason(t *testing.T) {
	for _, tc := range []struct {
		err  *service.APIError
		want string
	}{
		{&service.APIError{Status: 403, Code: service.CodeLimitReached, Message: "the bridge can pay out at most 1000 USDT on KAIA right now"},
			"A withdrawal limit is reached: try a smaller amount or later (service: the bridge can pay out at most 1000 USDT on KAIA right now)"},
		{&service.APIError{Status: 403, Code: service.CodeLimitReached},
			"A withdrawal limit is reached: try a smaller amount or later"},
		{&service.APIError{Status: 404, Message: "no such quote"},
			explanations[service.CodeNotFound] + " (service: no such quote)"},
		// Bug 8: the service's words repeat ours: they are not shown twice.
		{&service.APIError{Status: 403, Code: service.CodeAddressFlagged, Message: "address screening flagged the destination; the withdrawal is refused"},
			explanations[service.CodeAddressFlagged]},
		{&service.APIError{Status: 403, Code: service.CodeNotInAddressBook, Message: "to_address is not in this account's withdrawal address book; add it in the web UI first"},
			explanations[service.CodeNotInAddressBook]},
		{&service.APIError{Status: 502}, "The service had a problem (HTTP 502): try again in a moment"},
	} {
		if got := explain(tc.err).Error(); got != tc.want {
			t.Errorf("explain(%d %d %q) = %q, want %q", tc.err.Status, tc.err.Code, tc.err.Message, got, tc.want)
		}
	}
	if strings.Contains(explanations[service.CodeLimitReached], "tomorrow") {
		t.Error("a liquidity limit is not a daily one: no 'tomorrow'")
	}
}
