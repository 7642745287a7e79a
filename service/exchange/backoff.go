package exchange

import (
	"errors"
	"math/rand/v2"
	"time"
)

// MaxRetryAfter caps the wait a 429's Retry-After imposes on any request of
// ours (a withdraw's retries, a read made Patiently, following): a broken or
// hostile service could ask for hours, and coming back early only earns
// another 429.
const MaxRetryAfter = 10 * time.Second

// Backoff is the one jittered backoff of every caller that asks again after
// failures failures in a row (at least one): base, doubled for each failure
// after the first, at most ceiling, drawn at random from the upper half of
// that span so that clients that failed together do not come back together.
// jitter(n) draws in [0, n): rand.Int64N when nil, a fixed one in tests.
func Backoff(base, ceiling time.Duration, failures int, jitter func(n int64) int64) time.Duration {
	if jitter == nil {
		jitter = rand.Int64N
	}
	d := base
	for i := 1; i < failures && 0 < d && d < ceiling; i++ {
		d *= 2
	}
	d = min(d, ceiling)
	half := d / 2
	return half + time.Duration(jitter(int64(d-half)+1))
}

// RetryWait is the one Retry-After policy: after err, the wait before asking
// again is the Retry-After of a 429, at most MaxRetryAfter, and backoff when
// err is no 429 naming one.
func RetryWait(err error, backoff time.Duration) time.Duration {
	var ae *APIError
	if errors.As(err, &ae) && errors.Is(err, ErrRateLimited) && ae.RetryAfter > 0 {
		return min(ae.RetryAfter, MaxRetryAfter)
	}
	return backoff
}
