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

// TestLineOfAnEarlierSpellingIsTheService: a line an earlier version wrote
// for base_url's host as it was spelt (a trailing dot, a port with a
// leading zero) reads back as the service of its plain spelling, not
// another's, so its withdrawal resumes there.
func TestLineOfAnEarlierSpellingIsTheService(t *testing.T) {
	env := config.Environment{Name: "prod", BaseURL: "https://api.example.com", ChainID: 327}
	for _, host := range []string{"api.example.com.", "api.example.com:0443"} {
		j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		e := genIntent("prod", "acct-1", "q-1", 1, genT0)
		e.Service = &config.Service{Host: host, ChainID: 327}
		if err := j.Append(e); err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		recs, err := j.Records()
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s: %d records, %v", host, len(recs), err)
		}
		if !env.Reaches(recs[0].Service) {
			t.Errorf("a line written for %s: read back as %v, want %s's service", host, recs[0].Service, env.BaseURL)
		}
	}
}
