package withdrawal_test

import (
	"testing"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// world is the sandbox on loopback on one clock, the client's and the
// service's (rig has a local clock of its own), priced orders its own.
type world struct{ *loopback.World }

func newWorld(t *testing.T, opts sandbox.Options) *world { return &world{loopback.NewWorld(t, opts)} }
