package withdrawal_test

import (
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest/loopback"
	"github.com/svcwallet/svcwallet/internal/sandbox"
)

// The loopback rig under the names the wire client's tests give it.
var (
	mustKey = loopback.MustKey
	noSleep = loopback.NoSleep
)

type (
	recorder      = loopback.Recorder
	roundTripFunc = loopback.RoundTripFunc
)

// world is the sandbox on loopback on one clock, the client's and the
// service's (rig, for a local clock of its own).
type world struct{ *loopback.World }

func newWorld(t *testing.T, opts sandbox.Options) *world {
	return &world{loopback.NewWorld(t, opts)}
}
