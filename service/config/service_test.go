package config_test

import (
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestService: an environment's service is its base host (lower case,
// the scheme's default port dropped) and chain id, whatever its name or
// its other hosts; what Check reads back is what Service gives.
func TestService(t *testing.T) {
	for _, tc := range []struct {
		base string
		want config.Service
	}{
		{"https://API.Example.com/", config.Service{Host: "api.example.com", ChainID: 325}},
		{"https://api.example.com:443/api", config.Service{Host: "api.example.com", ChainID: 325}},
		{"https://api.example.com:8443", config.Service{Host: "api.example.com:8443", ChainID: 325}},
		{"http://127.0.0.1:8700", config.Service{Host: "127.0.0.1:8700", ChainID: 325}},
		{"http://[::1]:80/", config.Service{Host: "[::1]", ChainID: 325}},
		{"http://exchange_sandbox:8080", config.Service{Host: "exchange_sandbox:8080", ChainID: 325}},
		{"https://[fe80::1%25en0]:8443", config.Service{Host: "[fe80::1%en0]:8443", ChainID: 325}},
	} {
		e := config.Environment{Name: "a", BaseURL: tc.base, AuthURL: "https://auth.other.example", ChainID: 325}
		if got := e.Service(); got != tc.want {
			t.Errorf("%s: Service() = %+v, want %+v", tc.base, got, tc.want)
		}
		if err := e.Service().Check(); err != nil {
			t.Errorf("%s: Check: %v", tc.base, err)
		}
		renamed := e
		renamed.Name, renamed.MarketDataURL = "b", "https://md.example.com"
		if renamed.Service() != e.Service() {
			t.Errorf("%s: another name or market-data host changed the service", tc.base)
		}
	}
	for _, bad := range []config.Service{{}, {Host: "api.example.com"}, {Host: "API.example.com", ChainID: 1},
		{Host: "a b", ChainID: 1}, {Host: "evil\x1b[2J", ChainID: 1}, {Host: string(make([]byte, 300)), ChainID: 1}} {
		if bad.Check() == nil {
			t.Errorf("Check(%+q) passed", bad.Host)
		}
	}
}

// TestSameService: environments with one chain id are listed as one
// service's, each pair once.
func TestSameService(t *testing.T) {
	cfg := config.Config{Environments: map[string]config.Environment{
		"prod":       {Name: "prod", BaseURL: "https://api.example.com", ChainID: 325},
		"prod-proxy": {Name: "prod-proxy", BaseURL: "https://proxy.internal", ChainID: 325},
		"testnet":    {Name: "testnet", BaseURL: "https://api.testnet.example", ChainID: 326},
	}}
	got := cfg.SameService()
	if len(got) != 1 || got[0][0].Name != "prod" || got[0][1].Name != "prod-proxy" {
		t.Fatalf("SameService() = %+v", got)
	}
}
