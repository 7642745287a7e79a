package screentest

import (
	"context"

	"github.com/svcwallet/svcwallet/signer"
)

// SlowKey is a key whose signatures wait, as one in clef or on a device
// does: each waits until Approve, or until its context ends (esc), then
// signs with the key it wraps. Awaiting says what it waits for.
type SlowKey struct {
	signer.Key
	What    string
	approve chan struct{}
}

// NewSlowKey wraps k; its signatures wait for "approval on" what.
func NewSlowKey(k signer.Key, what string) *SlowKey {
	return &SlowKey{Key: k, What: "approval on " + what, approve: make(chan struct{})}
}

func (s *SlowKey) Awaiting() string { return s.What }

// Approve lets every signature, waiting or to come, through.
func (s *SlowKey) Approve() { close(s.approve) }

func (s *SlowKey) SignTypedData(ctx context.Context, d signer.Domain, m signer.Message) ([65]byte, error) {
	select {
	case <-s.approve:
		return s.Key.SignTypedData(ctx, d, m)
	case <-ctx.Done():
		return [65]byte{}, &signer.WaitError{Awaiting: s.What, Cancelled: true}
	}
}
