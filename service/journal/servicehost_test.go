package journal

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestAppendTakesEveryConfiguredHost: a withdrawal's intent is journaled
// with its environment's service whatever host the config may name (an
// underscore, an IPv6 zone), or the config refuses that host: a refused
// line would refuse every withdrawal there.
func TestAppendTakesEveryConfiguredHost(t *testing.T) {
	long := "https://" + strings.Repeat("a", 300) + ".example"
	for _, base := range []string{"https://exchange_proxy.internal:8443", "https://[fe80::1%25en0]:8443", long} {
		env := config.Environment{Name: "proxy", BaseURL: base, ChainID: 327}
		if err := config.CheckURL(base); err != nil {
			if base != long {
				t.Errorf("%s: the config refuses it: %v", base, err)
			}
			continue
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
