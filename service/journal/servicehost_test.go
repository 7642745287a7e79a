package journal

import (
	"path/filepath"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestAppendTakesEveryConfiguredHost: a withdrawal's intent is journaled
// with its environment's service whatever host the config may name (an
// underscore, an IPv6 zone): a refused line would refuse the withdrawal.
func TestAppendTakesEveryConfiguredHost(t *testing.T) {
	for _, base := range []string{"https://exchange_proxy.internal:8443", "https://[fe80::1%25en0]:8443"} {
		env := config.Environment{Name: "proxy", BaseURL: base, ChainID: 327}
		if err := config.CheckURL(base); err != nil {
			t.Fatalf("%s: the config refuses it: %v", base, err)
		}
		j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		e := genIntent("proxy", "acct-1", "q-1", 1, genT0)
		e.Service = new(env.Service())
		if err := j.Append(e); err != nil {
			t.Errorf("%s: %v", base, err)
			continue
		}
		recs, err := j.Records()
		if err != nil || len(recs) != 1 || recs[0].Service != env.Service() {
			t.Errorf("%s: read back %+v, %v", base, recs, err)
		}
	}
}
