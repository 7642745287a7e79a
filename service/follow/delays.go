package follow

import (
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// DefaultPollInterval is how often a followed withdrawal's status is asked
// (SPEC.md §3: "every few seconds").
const DefaultPollInterval = 3 * time.Second

// MaxPollBackoff caps the wait between withdrawal-status polls after errors:
// a status that could not be read for a while is still asked about twice a
// minute, so it shows again soon after the service comes back.
const MaxPollBackoff = 30 * time.Second

// PollDelay is the wait before the next status poll after failures
// consecutive failed polls. With none it is interval. After errors it is
// the one jittered backoff (exchange.Backoff) from twice interval, capped at
// MaxPollBackoff (or at interval when that is longer), and never below
// interval. jitter(n) returns a value in [0, n): rand.Int64N, or a fixed one
// in tests.
func PollDelay(interval time.Duration, failures int, jitter func(n int64) int64) time.Duration {
	if failures <= 0 {
		return interval
	}
	return max(exchange.Backoff(2*interval, max(MaxPollBackoff, interval), failures, jitter), interval)
}
