package screens

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"svcwallet/service"
	"svcwallet/tui"
)

// userError is an error whose text is written for the person at the terminal.
type userError struct{ text string }

func (e userError) Error() string { return e.text }

// explanations say what happened and what to do next, per service code.
var explanations = map[service.Code]string{
	service.CodeNotAuthenticated:    "Not logged in or the session ended: log in again",
	service.CodeForbidden:           "This credential is not allowed here: log in with a session (API key or wallet)",
	service.CodeRateLimited:         "Too many requests: wait a few seconds and try again",
	service.CodeUnauthorizedSigner:  "This signer is not registered on the account, or lacks the permission: use the account's main wallet",
	service.CodeSignatureExpired:    "The signature expired before it arrived: check the computer's clock and try again",
	service.CodeSignatureMismatch:   "The signature does not match what was sent: sign again (the environment's chain id may be wrong)",
	service.CodeBadV:                "The signature's v must be 27 or 28: sign again",
	service.CodeBadRS:               "The signature is malformed: sign again",
	service.CodeExpirationTooFar:    "The signature's expiration is too far ahead: choose a shorter one",
	service.CodeBridgeDisabled:      "The bridge feature is off for this account: ask support to enable it",
	service.CodeNoChainAccount:      "This account has no chain account yet: finish the chain account setup in the web UI first",
	service.CodeUnsupportedChain:    "That chain is not supported or not enabled for this account: pick another chain",
	service.CodeBuilderFields:       "Label, signer and permissions of the builder API key go together: fill all three or none",
	service.CodeBadFeeRate:          "A fee rate is not valid: use a percentage with at most 4 decimals, such as 0.1",
	service.CodeBadPermissions:      "The permissions are not valid: pick from the listed names",
	service.CodeRouteUnsupported:    "That route is not supported: pick another chain or payout token",
	service.CodeBelowFee:            "The amount does not cover the bridge fee: enter a larger amount",
	service.CodeLimitReached:        "A withdrawal limit is reached: try a smaller amount or later",
	service.CodeQuoteExpired:        "Quote expired: press r to get a new one and sign again",
	service.CodeNotFound:            "No withdrawal with that quote id on this account: check the id (another account's withdrawals are not visible)",
	service.CodeNotInAddressBook:    "The destination is not in the withdrawal address book: add it in the web UI first",
	service.CodeAddressFlagged:      "Address screening flagged the destination: the withdrawal was refused; contact support",
	service.CodeDailyLimit:          "The daily withdrawal limit would be exceeded: try a smaller amount or wait until tomorrow",
	service.CodeQuoteUsed:           "This quote was already executed with another signature: get a new quote",
	service.CodeBadAddress:          "The destination address is not valid for this chain: check it",
	service.CodeInsufficientBalance: "Insufficient balance in the funding account: enter a smaller amount",
	service.CodeDuplicateSignature:  "This signature was already used: sign again",
}

// Explain turns an error from the service into one line for the person at
// the terminal; the non-interactive commands print the same words.
func Explain(err error) error { return explain(err) }

// explain turns an error from the service into words for the user. Errors
// already written for the user pass through unchanged.
func explain(err error) error {
	if err == nil {
		return nil
	}
	var ue userError
	if errors.As(err, &ue) {
		return ue
	}
	var ae *service.APIError
	if errors.As(err, &ae) {
		if text, ok := explanations[ae.Code]; ok {
			return userError{withServiceMessage(text, ae)}
		}
		// A body without a known code: the status alone still tells some cases.
		for _, code := range []service.Code{service.CodeNotAuthenticated, service.CodeNotFound, service.CodeRateLimited} {
			if errors.Is(ae, code) {
				return userError{withServiceMessage(explanations[code], ae)}
			}
		}
		if ae.Status >= 500 {
			return userError{withServiceMessage(fmt.Sprintf("The service had a problem (HTTP %d): try again in a moment", ae.Status), ae)}
		}
		return userError{"The service refused: " + ae.Error()}
	}
	var te *service.TransportError
	if errors.As(err, &te) {
		return userError{fmt.Sprintf("Cannot reach %s (%s): check the network or the environment's URL, then retry", te.Host, te.Kind())}
	}
	return userError{err.Error()}
}

// withServiceMessage adds the service's own reason to our fixed text, which
// says what to do; the reason often says exactly why (a limit's amount, the
// chain). The client has already made Message one bounded line and never
// fills it from anything but the body's message field; nothing else of the
// body is shown.
func withServiceMessage(text string, ae *service.APIError) string {
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

// errorBlock draws "label: explanation" wrapped to width w, the label in the
// error style and the lines after the first indented under the text, so a
// long explanation is read in full rather than cut at the edge.
func errorBlock(c *tui.Common, label string, err error, w int) string {
	if err == nil {
		return ""
	}
	head := label + ": "
	hw := ansi.StringWidth(head)
	if w-hw < 20 {
		hw = 0 // too narrow to indent: wrap under the label
	}
	lines := strings.Split(ansi.Wrap(err.Error(), max(w-hw, 1), ""), "\n")
	var b strings.Builder
	b.WriteString(c.Styles.ErrorToast.Render(head))
	if hw == 0 {
		b.WriteString("\n")
	}
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\n" + strings.Repeat(" ", hw))
		}
		b.WriteString(strings.TrimRight(l, " "))
	}
	return b.String() + "\n"
}
