package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusOwnAPIKeyNeverSent: the session's API key given to status as
// a quote id (an argument, --json, or on standard input), or held by a
// transfer id's shape, is refused (exit 2) before any status request and
// never repeated: it was sent as quote_id and said back "no withdrawal
// with quote id KEY", and a transfer id "tx-KEY" was said back not found.
func TestStatusOwnAPIKeyNeverSent(t *testing.T) {
	r := newStatusRig(t)
	vars := map[string]string{exchange.APIKeyEnvVar: sandbox.DemoAPIKey}
	for _, res := range []statusRun{
		r.run(vars, sandbox.DemoAPIKey),
		r.run(vars, "q-1", sandbox.DemoAPIKey, "--json"),
		r.runStdin(sandbox.DemoAPIKey+"\n", "-"),
		r.run(vars, follow.TransferIDPrefix+sandbox.DemoAPIKey),
		r.run(vars, "q-1", follow.TransferIDPrefix+sandbox.DemoAPIKey, "--json"),
	} {
		if res.code != exitUsage || !strings.Contains(res.stderr+res.stdout, follow.ErrOwnSecretGiven.Error()) || strings.Contains(res.stdout+res.stderr, sandbox.DemoAPIKey) {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, the key not repeated", res.code, res.stdout, res.stderr)
		}
		if n := len(r.takeAsks()); n != 0 {
			t.Errorf("%d status requests, want none", n)
		}
	}
}

// TestStatusFoundOwnAPIKeyNeverSaid: a transfer id a planted board file
// pairs with the session's API key is said as not seen (exit 4), never
// asked: it was said as found ("transfer id tx-… is withdrawal <the key>").
// A row of the same file naming the withdrawal itself is found, so the
// board is read where it was planted.
func TestStatusFoundOwnAPIKeyNeverSaid(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	done, w := r.paidOut(t)
	boardOnly := w
	boardOnly.TxID = "tx-boardonly1"
	w.QuoteID, w.TxID = sandbox.DemoAPIKey+"1", "tx-plantedkey1"
	onBoard(t, w)
	onBoard(t, boardOnly)
	r.takeAsks()
	if res := r.run(nil, "tx-boardonly1"); res.code != exitCompleted || !strings.Contains(res.stderr, "tx-boardonly1 is withdrawal "+done) {
		t.Fatalf("the board's own row: exit %d, stderr %q; want exit 0, found on the board", res.code, strings.ReplaceAll(res.stderr, sandbox.DemoAPIKey, "<the API key>"))
	}
	r.takeAsks()
	res := r.run(nil, "tx-plantedkey1")
	if said := res.stdout + res.stderr; res.code != exitNotFound || strings.Contains(said, sandbox.DemoAPIKey) || !strings.Contains(said, "tx-plantedkey1 was not found") {
		t.Errorf("exit %d, said %q; want exit 4, not found, the key not said", res.code, strings.ReplaceAll(said, sandbox.DemoAPIKey, "<the API key>"))
	}
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests, want none", n)
	}
}
