package journal

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// legacyRefused opens the words of a rejected line that every version up
// to 970b8053 (0.1.0 among them) wrote, with no other field, for an answer
// no code explained (exchange.Explain): then "<message> (HTTP s)" or
// "(HTTP s, code c)" (APIError.Error). A bare 409 was journaled so until
// 1f750090, an unnamed 4xx until 89b588bb, a 1xx or 3xx until 970b8053.
const legacyRefused = "The service refused: "

// legacyStatus is the status and code that close those words: always
// last, after the service's message, so a message cannot forge them.
var legacyStatus = regexp.MustCompile(` \(HTTP ([0-9]{3})(?:, code ([0-9]{1,10}))?\)$`)

// legacyQuoteUsed is the words versions up to 8f56ae2c journaled a 9108
// (the quote already executed with another signature) in as a refusal,
// the service's reason after them in " (service: …)" when it added any.
const legacyQuoteUsed = "This quote was already executed with another signature: get a new quote"

// legacyUnreadable is the whole of a rejected line's words that versions
// e1c65b03 to 9981f4b7 (11-22, never released) wrote for a 2xx whose body
// did not decode: an answer that may have been an acceptance.
var legacyUnreadable = regexp.MustCompile(`^the service sent an answer svcwallet cannot read \(HTTP 2[0-9]{2}\)$`)

// unknownOutcome reports a rejected line an earlier version wrote for an
// answer today's svcwallet takes as saying nothing of whether the
// withdrawal executed (exchange.OutcomeUnknown: a 1xx, 3xx or 4xx the
// interface gives no meaning; exchange.QuoteUsed: a 409 without a code,
// or 9108; a 2xx it could not read, legacyUnreadable).
// It is no refusal: only the withdrawal's status can tell (answerOf).
func (e Entry) unknownOutcome() bool {
	if e.Kind != KindRejected || e.NotSent || e.QuoteExpired {
		return false
	}
	if e.Error == legacyQuoteUsed || strings.HasPrefix(e.Error, legacyQuoteUsed+" (service: ") || legacyUnreadable.MatchString(e.Error) {
		return true
	}
	rest, ok := strings.CutPrefix(e.Error, legacyRefused)
	if !ok {
		return false
	}
	m := legacyStatus.FindStringSubmatch(rest)
	if m == nil {
		return false
	}
	status, _ := strconv.Atoi(m[1])
	code := 0
	if m[2] != "" {
		var err error
		if code, err = strconv.Atoi(m[2]); err != nil {
			return false
		}
	}
	answer := &exchange.APIError{Status: status, Code: exchange.Code(code)}
	return exchange.OutcomeUnknown(answer) || exchange.QuoteUsed(answer)
}
