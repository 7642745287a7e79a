package sandbox

import (
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// What one account may hold, so a sandbox served to the network stays the
// same size under load: a new session beyond DefaultMaxSessions ends the
// account's oldest one (its holder logs in again on the 401, D6); a quote
// beyond DefaultMaxQuotes is refused with 429 code 1006 until the oldest
// expires. Withdrawals are records of money moved and are always kept.
const (
	DefaultMaxSessions = 10_000
	DefaultMaxQuotes   = 1_000
)

// quoteKeep is how long an unexecuted quote is kept after it expires, so a
// withdraw still in flight is told 9103 (expired) and a status check still
// sees CREATED: it covers withdrawal.TransferMargin, past which the client's
// signature for the quote is dead too. Then the quote is unknown (404), which
// a client reads as CREATED: never executed. An account at DefaultMaxQuotes
// gives up its expired quotes sooner.
const quoteKeep = 10 * time.Minute

// prune drops what expired at now: sessions, unexecuted quotes past
// quoteKeep and nonces whose signature expired (a replay of those is refused
// as expired anyway). Each is found on a timeline, not by a scan, so a
// request costs the same however much was made before it.
func (e *Exchange) prune(now time.Time) {
	at := now.UnixNano()
	for _, a := range e.accountList {
		for a.sessions.due(at) {
			delete(e.sessions, a.sessions.pop())
		}
		for a.quotes.due(at) {
			e.dropQuote(a, a.quotes.pop())
		}
	}
	// A nonce is used again only once expired, so after this drop: each has
	// one entry on the timeline, at the expiry its map value holds.
	for e.nonceExpiry.due(at) {
		delete(e.nonces, e.nonceExpiry.pop())
	}
}

// dropQuote forgets a quote taken off the account's timeline, unless it was
// executed: a withdrawal stays findable for ever.
func (e *Exchange) dropQuote(a *account, q *quote) {
	if q.exec == nil {
		delete(e.quotes, q.id)
		a.openQuotes--
	}
}

// addSession records a session, ending the account's oldest ones (the first
// to expire: every session lives sessionTTL) beyond maxSessions.
func (e *Exchange) addSession(a *account, token string, s session) {
	for a.sessions.len() >= e.maxSessions {
		delete(e.sessions, a.sessions.pop())
	}
	e.sessions[token] = s
	a.sessions.push(s.expires.UnixNano(), token)
}

// holdQuote stores a new quote, or refuses it (429, code 1006) while the
// account holds maxQuotes unexecuted live ones; expired ones make room.
func (e *Exchange) holdQuote(w http.ResponseWriter, a *account, q *quote, now time.Time) *apiError {
	for a.openQuotes >= e.maxQuotes {
		oldest, _ := a.quotes.peek()
		switch {
		case oldest.v.exec != nil: // a withdrawal now, not counted: off the timeline
			a.quotes.pop()
		case now.After(oldest.v.expires):
			e.dropQuote(a, a.quotes.pop())
		default:
			secs := retryAfter(w, oldest.v.expires.Sub(now)+time.Nanosecond)
			return failf(exchange.CodeRateLimited, "this account holds %d unexecuted quotes, the most the sandbox keeps; retry after %d s, when the oldest expires", e.maxQuotes, secs)
		}
	}
	e.quotes[q.id] = q
	a.quotes.push(q.expires.Add(quoteKeep).UnixNano(), q)
	a.openQuotes++
	return nil
}

// utcDay numbers the UTC day of t (days since 1970-01-01), the unit of the
// daily limit.
func utcDay(t time.Time) int64 {
	return t.Truncate(24*time.Hour).Unix() / (24 * 60 * 60)
}

// usedToday is what counts against the daily limit on now's UTC day: every
// signed withdrawal submitted that day but the refunded ones.
func (a *account) usedToday(now time.Time) decimal.Decimal {
	return a.usedByDay[utcDay(now)]
}

// countUsed adds (or, for a refund, takes back) a withdrawal's amount to the
// day it was submitted.
func (a *account) countUsed(q *quote, amount decimal.Decimal) {
	day := utcDay(q.exec.submitted)
	a.usedByDay[day] = a.usedByDay[day].Add(amount)
}
