package withdrawal_test

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// world is the sandbox on loopback on one clock, the client's and the
// service's (rig has a local clock of its own), priced orders its own.
type world struct{ *loopback.World }

func newWorld(t *testing.T, opts sandbox.Options) *world { return &world{loopback.NewWorld(t, opts)} }

// through logs in with the demo API key over hc (two tries, no pause) and
// opens a withdrawer on a fresh journal: where each test that shapes the
// service's answer to a withdraw starts.
func (w *world) through(t *testing.T, hc *http.Client) (*exchange.Client, *journal.Journal, withdrawal.Withdrawer) {
	t.Helper()
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{HTTPClient: hc, Retry: exchange.RetryPolicy{Attempts: 2, Sleep: loopback.NoSleep}})
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return c, j, mustWithdrawer(t, withdrawal.Setup{Client: c, Journal: j, Now: w.Clock.Now})
}
