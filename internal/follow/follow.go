package follow

import (
	"time"
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
// interval×2^failures capped at MaxPollBackoff (or at interval when that is
// longer), drawn at random from the upper half of that span so clients that
// failed together do not come back together. It is never below interval.
// jitter(n) returns a value in [0, n): rand.Int64N, or a fixed one in tests.
func PollDelay(interval time.Duration, failures int, jitter func(n int64) int64) time.Duration {
	if failures <= 0 {
		return interval
	}
	ceiling := max(MaxPollBackoff, interval)
	d := interval
	for i := 0; i < failures && d < ceiling; i++ {
		d *= 2
	}
	d = min(d, ceiling)
	half := d / 2
	d = half + time.Duration(jitter(int64(d-half)+1))
	return max(d, interval)
}
