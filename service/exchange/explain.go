package exchange

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"
)

// UserError is an error worded for the person at the terminal: what
// happened and what to do next. Unwrap gives the cause, so errors.Is still
// finds the service's code after the error has been worded.
type UserError struct {
	// Head, when set, says what happened ("Not sent") where a face would
	// say its own label (Labelled): never "Not withdrawn: Not sent: …".
	Head  string
	Text  string
	Cause error
}

func (e UserError) Error() string {
	if e.Head != "" {
		return e.Head + ": " + e.Text
	}
	return e.Text
}

func (e UserError) Unwrap() error { return e.Cause }

// Worded gives cause the words the user reads.
func Worded(cause error, text string) error { return UserError{Text: text, Cause: cause} }

// QuoteExpiredWords explain a withdrawal refused because its quote expired.
// Like every explanation they name no key and no command: the console and
// the command line print them, and the journal keeps them for History and
// `svcwallet history` alike. A front end whose next step is its own says
// it instead (the console's review: "press r"; `svcwallet withdraw`: run
// the command again).
const QuoteExpiredWords = "Quote expired before the withdrawal was executed, so nothing was paid: get a new quote and sign again"

// explanations say what happened and what to do next, per service code,
// in words that suit every front end (see QuoteExpiredWords).
var explanations = map[Code]string{
	CodeNotAuthenticated:    "Not logged in or the session ended: log in again",
	CodeForbidden:           "This credential is not allowed here: log in with a session (API key or wallet)",
	CodeRateLimited:         "Too many requests: wait a few seconds and try again",
	CodeBadChainID:          "The signature names another chain id than the service's: set the environment's chain_id (production 325, testnet 326, staging 327), then sign again",
	CodeUnauthorizedSigner:  "This signer is not registered on the account, or lacks the permission: use the account's main wallet",
	CodeSignatureExpired:    "The signature expired before it arrived: check the computer's clock and try again",
	CodeSignatureMismatch:   "The signature does not match what was sent: check the environment's domain_name and chain_id, then sign again",
	CodeBadV:                "The signature's v must be 27 or 28: sign again",
	CodeBadRS:               "The signature is malformed: sign again",
	CodeHighS:               "The signature's s is in the upper half of the curve, which the service refuses: sign again; if it recurs, the key source makes non-standard signatures",
	CodeExpirationTooFar:    "The signature's expiration is too far ahead: choose a shorter one",
	CodeBridgeDisabled:      "Deposits and withdrawals through the bridge are turned off for this account: ask support to enable the bridge feature, then try again",
	CodeNoChainAccount:      "This account has no chain account address yet, so it has no deposit addresses: finish the chain account setup in the web UI, then try again",
	CodeUnsupportedChain:    "That chain is not supported or not enabled for this account: pick another chain",
	CodeBuilderFields:       "Label, signer and permissions of the builder API key go together: fill all three or none",
	CodeBadFeeRate:          "A fee rate is not valid: use a percentage with at most 4 decimals, such as 0.1",
	CodeBuilderFeeOverLimit: "A fee rate is above the builder program's limit: choose a lower cap",
	CodeBuilderFeeNegative:  "A fee rate cannot be negative: use a percentage such as 0.1",
	CodeNoSuchBuilder:       "The service has no account with that builder address: check the builder's funding address",
	CodeBuilderAuthorized:   "This builder is already authorized with these fee caps: nothing needs signing",
	CodeBadPermissions:      "The permissions are not valid: pick from the listed names",
	CodeRouteUnsupported:    "That route is not supported: pick another chain or payout token",
	CodeBelowFee:            "The amount does not cover the bridge fee: enter a larger amount",
	CodeLimitReached:        "A withdrawal limit is reached: try a smaller amount or later",
	CodeQuoteExpired:        QuoteExpiredWords,
	CodeNotFound:            "No withdrawal with that quote id on this account: check the id (another account's withdrawals are not visible)",
	CodeNotInAddressBook:    "The destination is not in the withdrawal address book: add it in the web UI first",
	CodeAddressFlagged:      "Address screening flagged the destination: the withdrawal was refused; contact support",
	CodeDailyLimit:          "The daily withdrawal limit would be exceeded: try a smaller amount or wait until tomorrow",
	CodeQuoteUsed:           "The service says this quote was already executed with another signature, so it may have been paid: look up its status before withdrawing again",
	CodeBadAddress:          "The destination address is not valid for this chain: check it",
	CodeInsufficientBalance: "Insufficient balance in the funding account: enter a smaller amount",
	CodeDuplicateSignature:  "This signature's nonce was already used, so what it signed was most likely done already (a withdrawal paid): look it up before signing anything again",
}

// known reports whether c is a code the client gives a meaning: the
// service's published ones and svcwallet's own (docs/exchange.md).
func (c Code) known() bool {
	_, ok := explanations[c]
	return ok || c == CodeMalformed || c == CodeNoSuchEndpoint || c == CodeMethodNotAllowed
}

// walletLoginReasons: the published service refuses a wallet login with 401
// for four reasons and names the reason only in its message (SERVICE-FACTS);
// the first reason whose phrase the message holds is the one worded.
var walletLoginReasons = []struct {
	phrases []string
	text    string
}{
	{[]string{"expired"}, "Login signature expired: check the computer's clock, then log in again"},
	{[]string{"already used", "replay"}, "Login signature already used (its nonce was seen before): log in again, which signs a new nonce"},
	{[]string{"regist"}, "Wallet not registered: this key is not the main signing wallet of any account; log in with the account's main wallet"},
	{[]string{"invalid signature", "does not match", "verif"}, "Invalid login signature: check the environment's chain_id and domain_name, then log in again"},
}

// walletLoginRefusal words a 401 from the wallet-login endpoint by the
// reason its message names. It keeps the *APIError as the cause, and never
// reads as "the session ended": it is the login itself that failed.
func walletLoginRefusal(err error) error {
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		return err
	}
	msg := strings.ToLower(ae.Message)
	for _, r := range walletLoginReasons {
		for _, p := range r.phrases {
			if strings.Contains(msg, p) {
				return Worded(err, withServiceMessage(r.text, ae))
			}
		}
	}
	return Worded(err, withServiceMessage("The service refused the wallet login: check that the key is the account's main signing wallet for this environment", ae))
}

// Explain turns an error into one line for the person at the terminal; the
// console and the commands print the same words. Errors already worded for
// the user pass through unchanged.
func Explain(err error) error {
	if err == nil {
		return nil
	}
	var ue UserError
	if errors.As(err, &ue) {
		return ue
	}
	if se, ok := errors.AsType[SignError](err); ok {
		return se
	}
	if se, ok := errors.AsType[*SessionEndedError](err); ok {
		return Worded(err, se.Error())
	}
	var ae *APIError
	if errors.As(err, &ae) {
		if errors.Is(ae, CodeNotAuthenticated) {
			// The service's own words for a 401 only repeat ours.
			return Worded(err, explanations[CodeNotAuthenticated])
		}
		if text, ok := explanations[ae.Code]; ok {
			return Worded(err, withServiceMessage(text, ae))
		}
		// A body without a known code: the status alone still tells some cases.
		for _, code := range []Code{CodeNotAuthenticated, CodeNotFound, CodeRateLimited} {
			if errors.Is(ae, code) {
				return Worded(err, withServiceMessage(explanations[code], ae))
			}
		}
		if ae.Status >= 500 {
			return Worded(err, withServiceMessage(fmt.Sprintf("The service had a problem (HTTP %d): try again in a moment", ae.Status), ae))
		}
		return Worded(err, "The service refused: "+ae.Error())
	}
	var te *TransportError
	if errors.As(err, &te) {
		return Worded(err, fmt.Sprintf("Cannot reach %s (%s): check the network or the environment's URL, then retry", te.Host, te.Kind()))
	}
	return Worded(err, err.Error())
}

// withServiceMessage adds the service's own reason to our fixed text, which
// says what to do; the reason often says exactly why (a limit's amount, the
// chain). The client has already made Message one bounded line and never
// fills it from anything but the body's message field; nothing else of the
// body is shown.
func withServiceMessage(text string, ae *APIError) string {
	msg := strings.TrimSpace(ae.Message)
	if msg == "" || !addsWords(msg, text) {
		return text
	}
	return text + " (service: " + msg + ")"
}

// addsWords reports whether msg says more than text: a number, or words of
// four letters or more of which under 70% are in text. Short words ("is",
// "the") and a word or two differ between two phrasings of the same reason
// and tell nothing.
func addsWords(msg, text string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	have := map[string]bool{}
	for _, w := range split(text) {
		have[w] = true
	}
	words, known := 0, 0
	for _, w := range split(msg) {
		switch {
		case strings.ContainsFunc(w, unicode.IsDigit) && !have[w]:
			return true
		case len([]rune(w)) >= 4:
			words++
			if have[w] {
				known++
			}
		}
	}
	return words > 0 && known*10 < words*7
}

// StateWords say what each state means for the user's money (SPEC.md §3),
// read after the state's name ("FAILED: Nothing was paid out…"): no label
// of their own before a colon, no restating the name.
var StateWords = map[string]string{
	StateCreated:   "Not executed yet, so nothing has been debited; an unexecuted quote expires after about a minute.",
	StateSubmitted: "Funds debited from the funding account; the bridge is processing the withdrawal.",
	StateSending:   "The bridge accepted the withdrawal; the payout transaction is in flight.",
	StateCompleted: "Paid out; the payout transaction is confirmed on the destination chain.",
	StateFailed:    "Nothing was paid out, and unlike a refund the funds are not returned automatically; contact support with the quote id and transfer id.",
	StateRefunded:  "The funds are back in the funding account; nothing was paid out, and you can withdraw again.",
}

// ExpiredWords replace CREATED's once the quote can no longer be executed.
const ExpiredWords = "The quote was never executed, so nothing was debited, and nothing more will happen to it."
