package sandbox

import (
	"net/http"
	"strconv"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// rateWindow counts one account's requests in the current second of the
// sandbox clock.
type rateWindow struct {
	second time.Time
	count  int
}

// requester names the account a request speaks for, from its session cookie
// or API key; "" for anonymous requests (logins, time), which are not limited.
// Called with the lock held.
func (e *Exchange) requester(r *http.Request, now time.Time) string {
	if key := r.Header.Get(headerAPIKey); key != "" {
		if g, ok := e.keys[key]; ok {
			return g.accountID
		}
	}
	if c, err := r.Cookie(e.cookieName); err == nil {
		if s, ok := e.sessions[c.Value]; ok && now.Before(s.expires) {
			return s.accountID
		}
	}
	return ""
}

// overRate counts r against its account's budget of Options.RateLimit
// requests a second and, beyond it, returns how long until the next second
// starts (the Retry-After), rounded up to whole seconds.
func (e *Exchange) overRate(r *http.Request) (time.Duration, bool) {
	if e.rateLimit <= 0 {
		return 0, false
	}
	now := e.lock()
	defer e.mu.Unlock()
	id := e.requester(r, now)
	if id == "" {
		return 0, false
	}
	sec := now.Truncate(time.Second)
	w := e.rates[id]
	if !w.second.Equal(sec) {
		w = rateWindow{second: sec}
	}
	w.count++
	e.rates[id] = w
	if w.count <= e.rateLimit {
		return 0, false
	}
	return sec.Add(time.Second).Sub(now), true
}

// rejectRate answers a request over its account's budget: 429, code 1006,
// with Retry-After.
func rejectRate(w http.ResponseWriter, wait time.Duration) *apiError {
	secs := retryAfter(w, wait)
	return failf(exchange.CodeRateLimited, "more than the allowed requests a second for this account; retry after %d s", secs)
}

// retryAfter sets the Retry-After of a 429 to wait in whole seconds,
// rounded up (at least 1), and returns them.
func retryAfter(w http.ResponseWriter, wait time.Duration) int {
	secs := max(int((wait+time.Second-1)/time.Second), 1)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	return secs
}
