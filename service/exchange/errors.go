package exchange

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Code is an error code of the service (D7). Codes the published service
// defines keep its number and HTTP status (1xxx, 2xxx, 4xxx, 75xx);
// svcwallet's own, for the bridge, deposit, builder and routing rejections it
// publishes no code for, are 9000 and up, outside every published range
// (docs/exchange.md, "Error codes", lists them). A Code is an error so that
// errors.Is(err, exchange.CodeQuoteExpired) works on any *APIError.
type Code int

const (
	CodeNotAuthenticated    Code = 1000 // 401: no or expired session, unknown API key, refused wallet login
	CodeForbidden           Code = 1001 // 403: credential not allowed here (X-API-Key on bridge)
	CodeMalformed           Code = 1003 // 400: body or field not understood
	CodeNotFound            Code = 1004 // 404: data not found: unknown quote or another account's
	CodeRateLimited         Code = 1006 // 429
	CodeUnknown             Code = 1005 // 500: unknown error (the sandbox: a request it failed on)
	CodeBadChainID          Code = 1012 // 400: signature chain id is not the environment's
	CodeUnauthorizedSigner  Code = 2000 // 403: signer unknown or lacks the permission
	CodeSignatureExpired    Code = 2001 // 403: expiration in the past
	CodeSignatureMismatch   Code = 2002 // 403: signature does not match the payload
	CodeBadV                Code = 2005 // 403: v must be 27 or 28
	CodeBadRS               Code = 2006 // 403: r/s must be 0x + 64 hex
	CodeHighS               Code = 2007 // 403: s must be in the lower half of the curve
	CodeExpirationTooFar    Code = 2008 // 400: expiration beyond the window
	CodeInsufficientBalance Code = 4000 // 400
	CodeDuplicateSignature  Code = 4007 // 400: (signer, nonce) already used
	CodeBuilderFeeOverLimit Code = 7500 // 400: fee rate over the builder program's limit
	CodeBuilderFeeNegative  Code = 7501 // 400: fee rate negative
	CodeNoSuchBuilder       Code = 7502 // 400: builder account does not exist (the sandbox takes any address)
	CodeBuilderAuthorized   Code = 7503 // 400: builder already authorized with that fee (the sandbox re-authorizes)
	CodeBridgeDisabled      Code = 9000 // 403: bridge feature off for the account
	CodeNoChainAccount      Code = 9001 // 403: account has no chain account address
	CodeUnsupportedChain    Code = 9002 // 400: chain not supported or not enabled
	CodeBuilderFields       Code = 9003 // 400: builder_api_key_* fields must come together
	CodeBadFeeRate          Code = 9004 // 400: fee rate not a decimal with ≤ 4 places
	CodeBadPermissions      Code = 9005 // 400: unknown, repeated or non-canonical permissions
	CodeRouteUnsupported    Code = 9100 // 400: no route for chain/token pair
	CodeBelowFee            Code = 9101 // 400: amount does not cover the bridge fee
	CodeLimitReached        Code = 9102 // 403: withdrawal or liquidity limit reached (liquidity at execution too)
	CodeQuoteExpired        Code = 9103 // 410: quote past expires_at
	CodeNotInAddressBook    Code = 9105 // 403: destination not in the address book
	CodeAddressFlagged      Code = 9106 // 403: screening flagged the destination
	CodeDailyLimit          Code = 9107 // 403: daily withdrawal limit exceeded
	CodeQuoteUsed           Code = 9108 // 409: quote already executed with another nonce (D10)
	CodeBadAddress          Code = 9109 // 400: destination not valid for the chain type
	CodeNoSuchEndpoint      Code = 9404 // 404: no endpoint at this path
	CodeMethodNotAllowed    Code = 9405 // 405: endpoint exists, other method
)

func (c Code) Error() string { return fmt.Sprintf("service error %d", int(c)) }

// Status is the HTTP status the sandbox answers a code with: the published
// one for the service's codes (SERVICE-FACTS: 403 for 2000–2007).
func (c Code) Status() int {
	switch c {
	case CodeNotAuthenticated:
		return http.StatusUnauthorized
	case CodeForbidden, CodeUnauthorizedSigner, CodeSignatureExpired, CodeSignatureMismatch,
		CodeBadV, CodeBadRS, CodeHighS,
		CodeBridgeDisabled, CodeNoChainAccount, CodeLimitReached, CodeNotInAddressBook,
		CodeAddressFlagged, CodeDailyLimit:
		return http.StatusForbidden
	case CodeRateLimited:
		return http.StatusTooManyRequests
	case CodeQuoteExpired:
		return http.StatusGone
	case CodeNotFound, CodeNoSuchEndpoint:
		return http.StatusNotFound
	case CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case CodeQuoteUsed:
		return http.StatusConflict
	case CodeUnknown:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// APIError is a non-2xx answer from the service.
type APIError struct {
	Status  int    // HTTP status
	Code    Code   // 0 when the body carried none
	Message string // the service's message, never a raw body
	// RetryAfter is the Retry-After of a 429 (0 when absent or unreadable).
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if e.Code != 0 {
		return fmt.Sprintf("%s (HTTP %d, code %d)", msg, e.Status, int(e.Code))
	}
	return fmt.Sprintf("%s (HTTP %d)", msg, e.Status)
}

// StatusWords says the answer's status, code and message in one level of
// parentheses, `HTTP 418 (code 4321, "not processed")`, for words that
// say the answer in parentheses of their own (Error's would nest).
func (e *APIError) StatusWords() string {
	var in []string
	if e.Code != 0 {
		in = append(in, fmt.Sprintf("code %d", int(e.Code)))
	}
	if e.Message != "" && e.Message != http.StatusText(e.Status) {
		in = append(in, strconv.Quote(e.Message))
	}
	if len(in) == 0 {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d (%s)", e.Status, strings.Join(in, ", "))
}

// Is matches a Code by value; when the body carried no code, the statuses
// that mean one thing (401, 404, 429) match their code.
func (e *APIError) Is(target error) bool {
	var c Code
	if !errors.As(target, &c) {
		return false
	}
	if e.Code == c {
		return true
	}
	// A body with a code of its own says what the status means (a 404 with
	// code 9404 is a wrong URL, not an unknown quote).
	if e.Code != 0 {
		return false
	}
	switch c {
	case CodeNotAuthenticated:
		return e.Status == http.StatusUnauthorized
	case CodeNotFound:
		return e.Status == http.StatusNotFound
	case CodeRateLimited:
		return e.Status == http.StatusTooManyRequests
	}
	return false
}

// Convenience names for the cases a screen must tell apart.
var (
	ErrUnauthenticated     error = CodeNotAuthenticated
	ErrRateLimited         error = CodeRateLimited
	ErrNotFound            error = CodeNotFound
	ErrQuoteExpired        error = CodeQuoteExpired
	ErrNotInAddressBook    error = CodeNotInAddressBook
	ErrFlagged             error = CodeAddressFlagged
	ErrInsufficientBalance error = CodeInsufficientBalance
	ErrDailyLimit          error = CodeDailyLimit
)
