package service

import (
	"errors"
	"strings"
	"testing"
)

// TestExplainKeepsServiceReason: the fixed, actionable text stays and the
// service's own reason follows it; nothing is added when there is none.
func TestExplainKeepsServiceReason(t *testing.T) {
	for _, tc := range []struct {
		err  *APIError
		want string
	}{
		{&APIError{Status: 403, Code: CodeLimitReached, Message: "the bridge can pay out at most 1000 USDT on KAIA right now"},
			"A withdrawal limit is reached: try a smaller amount or later (service: the bridge can pay out at most 1000 USDT on KAIA right now)"},
		{&APIError{Status: 403, Code: CodeLimitReached},
			"A withdrawal limit is reached: try a smaller amount or later"},
		{&APIError{Status: 404, Message: "no such quote"},
			explanations[CodeNotFound] + " (service: no such quote)"},
		// Bug 8: the service's words repeat ours: they are not shown twice.
		{&APIError{Status: 403, Code: CodeAddressFlagged, Message: "address screening flagged the destination; the withdrawal is refused"},
			explanations[CodeAddressFlagged]},
		{&APIError{Status: 403, Code: CodeNotInAddressBook, Message: "to_address is not in this account's withdrawal address book; add it in the web UI first"},
			explanations[CodeNotInAddressBook]},
		{&APIError{Status: 502}, "The service had a problem (HTTP 502): try again in a moment"},
	} {
		if got := Explain(tc.err).Error(); got != tc.want {
			t.Errorf("Explain(%d %d %q) = %q, want %q", tc.err.Status, tc.err.Code, tc.err.Message, got, tc.want)
		}
	}
	if strings.Contains(explanations[CodeLimitReached], "tomorrow") {
		t.Error("a liquidity limit is not a daily one: no 'tomorrow'")
	}
}

// TestExplainKeepsTheCause: a worded error still answers errors.Is and
// errors.As for the service's code, so callers can act on it after wording.
func TestExplainKeepsTheCause(t *testing.T) {
	err := Explain(&APIError{Status: 403, Code: CodeQuoteExpired})
	var ae *APIError
	if !errors.Is(err, CodeQuoteExpired) || !errors.As(err, &ae) || ae.Status != 403 {
		t.Fatalf("%v lost its cause", err)
	}
	if again := Explain(err); again.Error() != err.Error() || !errors.Is(again, CodeQuoteExpired) {
		t.Fatalf("wording twice changed it: %v", again)
	}
}
