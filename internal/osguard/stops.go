package osguard

import (
	"context"
	"os"
	"sync/atomic"
)

// Stops counts the stops a console took (ctrl+z, or one sent from
// elsewhere), so that a stop sent from elsewhere (SIGTSTP) and handed to
// its event loop before one was taken is known to be that one: two kill
// -TSTP at once stop it once, one fg, not twice. JobControl's stop drops
// one that came while stopped; this, one already handed over.
type Stops struct{ taken atomic.Uint64 }

// Asked is what a stop sent from elsewhere carries when handed over.
func (s *Stops) Asked() uint64 { return s.taken.Load() }

// Took counts a stop taken, once continued.
func (s *Stops) Took() { s.taken.Add(1) }

// TakenSince reports whether a stop was taken since one carrying asked was
// handed over: that one was it, and this one is dropped.
func (s *Stops) TakenSince(asked uint64) bool { return s.taken.Load() != asked }

// Forward hands send what Asked says for each stop sent from elsewhere
// (asked, JobControl's) until ctx ends, for the event loop to take it or
// drop it (TakenSince).
func (s *Stops) Forward(ctx context.Context, asked <-chan os.Signal, send func(seen uint64)) {
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-asked:
				send(s.Asked())
			}
		}
	}()
}
