// Package exchangetest is what the tests of the wire client, the domain,
// the command line and the console share: a settable clock for the sandbox,
// fake signers, the rewrites a hostile proxy makes to a status record (so
// every layer faces the same attacks) and planted files. Imported by tests
// only; loopback, beside it, is the sandbox on loopback.
package exchangetest

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
)

// A Rewrite turns the raw body of a status answer into another.
type Rewrite func(body []byte) []byte

var (
	txID      = regexp.MustCompile(`"tx_id":"[^"]*"`)
	receive   = regexp.MustCompile(`"receive_amount":"[^"]*"`)
	payout    = regexp.MustCompile(`,"withdraw_tx_hash":"[^"]*"`)
	updatedAt = regexp.MustCompile(`"updated_at":"[^"]*"`)
)

// TxIDRunsCommand makes the transfer id a shell command substitution.
func TxIDRunsCommand(b []byte) []byte {
	return txID.ReplaceAll(b, []byte(`"tx_id":"t-$(touch${IFS}/tmp/PWNED)"`))
}

// HugeAmount makes the receive amount 900,000 digits long.
func HugeAmount(b []byte) []byte {
	return receive.ReplaceAll(b, []byte(`"receive_amount":"`+strings.Repeat("9", 900_000)+`"`))
}

// StateTwice names the state twice, the second in capitals: encoding/json
// would keep the last.
func StateTwice(b []byte) []byte {
	return bytes.Replace(b, []byte(`"state":"COMPLETED"`), []byte(`"state":"COMPLETED","STATE":"FAILED"`), 1)
}

// NoPayoutHash drops the payout hash of a COMPLETED record.
func NoPayoutHash(b []byte) []byte { return payout.ReplaceAll(b, nil) }

// CreatedLongAgo turns the record back into a CREATED quote last updated
// in 2020, as if it had never been executed.
func CreatedLongAgo(b []byte) []byte {
	b = updatedAt.ReplaceAll(NoPayoutHash(b), []byte(`"updated_at":"2020-01-01T00:00:00Z"`))
	return bytes.Replace(b, []byte(`"state":"COMPLETED"`), []byte(`"state":"CREATED"`), 1)
}

// Conflict is an answer to a withdraw the service executed that does not
// say whether it paid, with what a face that words it as an answer says.
type Conflict struct {
	Status     int
	Body, Says string
}

// SaidTwice reports whether a face's words for a Conflict say the answer
// twice ("the service answered withdrawal q-…: The service answered …"), or
// add the service layer's own next step to the face's.
func SaidTwice(said string) bool {
	return strings.Count(strings.ToLower(said), "answered") != 1 || strings.Contains(said, "look up its status")
}

// Nested reports whether said puts parentheses inside parentheses, as
// "(not processed (HTTP 418, code 4321))" did.
func Nested(said string) bool {
	depth := 0
	for _, r := range said {
		switch r {
		case '(':
			if depth++; depth > 1 {
				return true
			}
		case ')':
			depth--
		}
	}
	return false
}

// Conflicts: 9108 (the quote already executed with another signature), a
// 409 without a code of its own, and a 4xx or a 3xx the interface gives no
// meaning with a code svcwallet does not know (exchange.UnnamedRefusal).
var Conflicts = map[string]Conflict{
	"9108":               {http.StatusConflict, `{"code":9108,"message":"this quote was already executed with another signature","status":409}`, "already executed with another signature"},
	"409 without a code": {http.StatusConflict, `{"message":"conflict","status":409}`, "a conflict over this quote"},
	"an unnamed 418":     {http.StatusTeapot, `{"code":4321,"message":"not processed"}`, "does not say whether it was taken"},
	"a 303 See Other":    {http.StatusSeeOther, `{"message":"see the withdrawal's status"}`, "does not say whether it was taken"},
}
