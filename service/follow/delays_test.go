package follow

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestPollDelay: no failure, the interval; after failures, a wait inside
// [interval, 30 s] whose ceiling doubles per failure, whatever the jitter.
func TestPollDelay(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, interval := range []time.Duration{time.Second, 3 * time.Second, 20 * time.Second, 45 * time.Second} {
		if d := PollDelay(interval, 0, rng.Int64N); d != interval {
			t.Errorf("interval %s, no failure: %s", interval, d)
		}
		ceiling := max(MaxPollBackoff, interval)
		for failures := 1; failures <= 70; failures++ {
			top := min(interval<<min(failures, 20), ceiling)
			if got := PollDelay(interval, failures, func(n int64) int64 { return n - 1 }); got != top {
				t.Errorf("interval %s, %d failures, highest jitter: %s, want %s", interval, failures, got, top)
			}
			for range 50 {
				d := PollDelay(interval, failures, rng.Int64N)
				if d < interval || d > ceiling || d < top/2 {
					t.Fatalf("interval %s, %d failures: %s outside [%s, %s]", interval, failures, d, max(interval, top/2), top)
				}
			}
		}
	}
}
