package signer

import (
	"sync"
	"time"
)

// Running counts the signatures signing commands are making, so that the
// console can wait, as it quits, until each command has ended and its
// typed data file is removed. Unlike a sync.WaitGroup, a signature may
// begin while Close waits: it is refused instead (the console is ending).
// The zero value is ready.
type Running struct {
	mu     sync.Mutex
	n      int
	closed bool
	idle   chan struct{} // closed when n falls to 0 after Close
}

// begin counts a signature that starts; false once Close was called.
func (r *Running) begin() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	r.n++
	return true
}

// end counts one off, and wakes Close at the last.
func (r *Running) end() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n--
	if r.n == 0 && r.idle != nil {
		close(r.idle)
		r.idle = nil
	}
}

// Close refuses new signatures and waits until those running have ended,
// or for at most d; false when some still run then.
func (r *Running) Close(d time.Duration) bool {
	r.mu.Lock()
	r.closed = true
	if r.n == 0 {
		r.mu.Unlock()
		return true
	}
	idle := make(chan struct{})
	r.idle = idle
	r.mu.Unlock()
	select {
	case <-idle:
		return true
	case <-time.After(d):
		return false
	}
}
