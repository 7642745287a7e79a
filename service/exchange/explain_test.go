package exchange

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

// TestExplainNonceUsedNeverSaysSignAgain: a signature whose nonce was used
// already (4007) most likely did what it signed (a withdrawal paid): the
// words every face falls back on say so, and never to sign again, which
// would pay twice.
func TestExplainNonceUsedNeverSaysSignAgain(t *testing.T) {
	said := Explain(&APIError{Status: 400, Code: CodeDuplicateSignature}).Error()
	if strings.Contains(said, "sign again") || !strings.Contains(said, "most likely done already") {
		t.Errorf("4007 is said %q", said)
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

// TestExplainWalletLoginRefusal: a 401 from the wallet-login endpoint is
// worded by the reason its message names, whatever else the body held; any
// other answer is left to Explain.
func TestExplainWalletLoginRefusal(t *testing.T) {
	for _, tc := range []struct {
		err  *APIError
		want string
	}{
		{&APIError{Status: 401, Code: CodeNotAuthenticated, Message: "signature expired"}, "Login signature expired: check the computer's clock, then log in again"},
		{&APIError{Status: 401, Message: "Signature already used"}, "Login signature already used"},
		{&APIError{Status: 401, Message: "invalid signature"}, "Invalid login signature: check the environment's chain_id and domain_name"},
		{&APIError{Status: 401, Code: 2000, Message: "wallet is not registered as a main signing wallet"}, "Wallet not registered: "},
		// An HTML or empty body: no reason to name, still no "session ended".
		{&APIError{Status: 401}, "The service refused the wallet login: check that the key is the account's main signing wallet"},
		{&APIError{Status: 401, Message: "go away"}, "The service refused the wallet login: check that the key is the account's main signing wallet for this environment (service: go away)"},
	} {
		got := Explain(walletLoginRefusal(tc.err))
		if !strings.HasPrefix(got.Error(), tc.want) {
			t.Errorf("%d %q: %q, want it to start %q", tc.err.Status, tc.err.Message, got, tc.want)
		}
		if !errors.Is(got, tc.err) {
			t.Errorf("%q lost its cause", got)
		}
	}
	tooFar := &APIError{Status: 400, Code: CodeExpirationTooFar, Message: "signature expired too late"}
	if got := walletLoginRefusal(tooFar); got != error(tooFar) {
		t.Errorf("a 400 was worded as a refused login: %v", got)
	}
	if walletLoginRefusal(nil) != nil {
		t.Error("no error became one")
	}
}
