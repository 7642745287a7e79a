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
