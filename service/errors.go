package service

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Code is an error code of the service (D7). The 1xxx, 2xxx and 4xxx codes are
// the service's published ones; 3xxx are svcwallet's own for the bridge,
// deposit and builder rejections the spec gives no code for (README lists them).
// A Code is an error so that errors.Is(err, service.CodeQuoteExpired) works on
// any *APIError.
type Code int

const (
	CodeNotAuthenticated    Code = 1000 // 401: no or expired session, unknown API key
	CodeForbidden           Code = 1001 // 403: credential not allowed here (X-API-Key on bridge)
	CodeMalformed           Code = 1003 // 400: body or field not understood
	CodeNoSuchEndpoint      Code = 1004 // 404: no endpoint at this path
	CodeMethodNotAllowed    Code = 1005 // 405: endpoint exists, other method
	CodeRateLimited         Code = 1006 // 429
	CodeUnauthorizedSigner  Code = 2000 // 403: signer unknown or lacks the permission
	CodeSignatureExpired    Code = 2001 // 400: expiration in the past
	CodeSignatureMismatch   Code = 2002 // 400: signature does not match the payload
	CodeBadV                Code = 2005 // 400: v must be 27 or 28
	CodeBadRS               Code = 2006 // 400: r/s must be 0x + 64 hex (low s)
	CodeExpirationTooFar    Code = 2008 // 400: expiration beyond the window
	CodeBridgeDisabled      Code = 3000 // 403: bridge feature off for the account
	CodeNoChainAccount      Code = 3001 // 403: account has no chain account address
	CodeUnsupportedChain    Code = 3002 // 400: chain not supported or not enabled
	CodeBuilderFields       Code = 3003 // 400: builder_api_key_* fields must come together
	CodeBadFeeRate          Code = 3004 // 400: fee rate not a decimal with ≤ 4 places in uint32 range
	CodeBadPermissions      Code = 3005 // 400: unknown, repeated or non-canonical permissions
	CodeRouteUnsupported    Code = 3100 // 400: no route for chain/token pair
	CodeBelowFee            Code = 3101 // 400: amount does not cover the bridge fee
	CodeLimitReached        Code = 3102 // 403: withdrawal or liquidity limit reached at quote time
	CodeQuoteExpired        Code = 3103 // 410: quote past expires_at
	CodeNotFound            Code = 3104 // 404: unknown quote or another account's
	CodeNotInAddressBook    Code = 3105 // 403: destination not in the address book
	CodeAddressFlagged      Code = 3106 // 403: screening flagged the destination
	CodeDailyLimit          Code = 3107 // 403: daily withdrawal limit exceeded
	CodeQuoteUsed           Code = 3108 // 409: quote already executed with another nonce
	CodeBadAddress          Code = 3109 // 400: destination not valid for the chain type
	CodeInsufficientBalance Code = 4000 // 400
	CodeDuplicateSignature  Code = 4007 // 409: (signer, nonce) already used
)

func (c Code) Error() string { return fmt.Sprintf("service error %d", int(c)) }

// Status is the HTTP status the sandbox answers a code with.
func (c Code) Status() int {
	switch c {
	case CodeNotAuthenticated:
		return http.StatusUnauthorized
	case CodeForbidden, CodeUnauthorizedSigner, CodeBridgeDisabled, CodeNoChainAccount,
		CodeLimitReached, CodeNotInAddressBook, CodeAddressFlagged, CodeDailyLimit:
		return http.StatusForbidden
	case CodeRateLimited:
		return http.StatusTooManyRequests
	case CodeQuoteExpired:
		return http.StatusGone
	case CodeNotFound, CodeNoSuchEndpoint:
		return http.StatusNotFound
	case CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case CodeQuoteUsed, CodeDuplicateSignature:
		return http.StatusConflict
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
	// code 1004 is a wrong URL, not an unknown quote).
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
