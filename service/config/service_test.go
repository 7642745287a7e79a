package config_test

import (
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestService: an environment's service is its base host (lower case,
// no trailing dot, an address in its shortest form, the port without
// leading zeros and dropped when https's default on a host http cannot
// reach, kept on loopback, where it tells http from https) and chain id, whatever its name or
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
		{"http://[::1]:80/", config.Service{Host: "[::1]:80", ChainID: 325}},
		{"http://exchange_sandbox:8080", config.Service{Host: "exchange_sandbox:8080", ChainID: 325}},
		{"https://[fe80::1%25en0]:8443", config.Service{Host: "[fe80::1%en0]:8443", ChainID: 325}},
		{"https://api.example.com./", config.Service{Host: "api.example.com", ChainID: 325}},
		{"https://API.example.com.:0443/", config.Service{Host: "api.example.com", ChainID: 325}},
		{"https://api.example.com:/", config.Service{Host: "api.example.com", ChainID: 325}},
		{"https://api.example.com:08443", config.Service{Host: "api.example.com:8443", ChainID: 325}},
		{"http://localhost.:080", config.Service{Host: "localhost:80", ChainID: 325}},
		{"http://LOCALHOST/", config.Service{Host: "localhost:80", ChainID: 325}},
		{"https://localhost", config.Service{Host: "localhost:443", ChainID: 325}},
		{"https://127.0.0.1:443/", config.Service{Host: "127.0.0.1:443", ChainID: 325}},
		{"https://[2001:DB8:0:0::1]:443", config.Service{Host: "[2001:db8::1]", ChainID: 325}},
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

// TestReachesAnEarlierSpelling: a service read back (a journal line, a
// kept session) whose host an earlier version recorded as it was
// spelt (api.example.com., :0443) is the service of each spelling of its
// host, and of no other host, port or chain.
func TestReachesAnEarlierSpelling(t *testing.T) {
	for _, base := range []string{"https://api.example.com", "https://API.example.com.:443/", "https://api.example.com:0443/v1"} {
		e := config.Environment{Name: "a", BaseURL: base, ChainID: 325}
		for _, host := range []string{"api.example.com", "api.example.com.", "api.example.com:0443", "api.example.com.:443", "api.example.com:"} {
			if !e.Reaches(config.Service{Host: host, ChainID: 325}) {
				t.Errorf("%s does not reach a line written for %s", base, host)
			}
		}
		for _, other := range []config.Service{{Host: "api.example.com", ChainID: 326}, {Host: "api.example.com:8443", ChainID: 325},
			{Host: "api.example.co", ChainID: 325}, {Host: "api.example.com..evil", ChainID: 325},
			{Host: "api.example.com..", ChainID: 325}, {Host: "api.example.com:0", ChainID: 325}, {Host: "api.example.com.:000", ChainID: 325}} {
			if e.Reaches(other) {
				t.Errorf("%s reaches %v", base, other)
			}
		}
	}
	if e := (config.Environment{BaseURL: "http://127.0.0.1:08700", ChainID: 1}); !e.Reaches(config.Service{Host: "127.0.0.1:8700", ChainID: 1}) {
		t.Errorf("%s does not reach 127.0.0.1:8700", e.BaseURL)
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

// TestHTTPAndHTTPSOnOneHost: on loopback, where a config may name http,
// http://localhost and https://localhost are two services (a sandbox on
// :80, a proxy on :443): neither reaches the other's lines or sessions,
// however their URLs spell the port. A line an earlier version wrote
// without the port is read under each environment's scheme, as it was.
func TestHTTPAndHTTPSOnOneHost(t *testing.T) {
	plain := config.Environment{Name: "sandbox", BaseURL: "http://localhost", ChainID: 325}
	tls := config.Environment{Name: "proxy", BaseURL: "https://localhost/", ChainID: 325}
	if plain.Service() == tls.Service() {
		t.Fatalf("http and https on one host are one service: %v", plain.Service())
	}
	for _, tc := range []struct {
		e     config.Environment
		other config.Service
	}{{plain, tls.Service()}, {tls, plain.Service()}} {
		if tc.e.Reaches(tc.other) {
			t.Errorf("%s reaches %v", tc.e.BaseURL, tc.other)
		}
		if !tc.e.Reaches(tc.e.Service()) {
			t.Errorf("%s does not reach its own %v", tc.e.BaseURL, tc.e.Service())
		}
		if !tc.e.Reaches(config.Service{Host: "localhost", ChainID: 325}) || !tc.e.Reaches(config.Service{Host: "localhost.", ChainID: 325}) {
			t.Errorf("%s does not reach a line an earlier version wrote for localhost", tc.e.BaseURL)
		}
	}
	for _, spelt := range []string{"http://localhost:80", "http://localhost.:080/v1"} {
		if e := (config.Environment{BaseURL: spelt, ChainID: 325}); e.Service() != plain.Service() || e.Reaches(tls.Service()) {
			t.Errorf("%s is %v, want %v's", spelt, e.Service(), plain.BaseURL)
		}
	}
	if !config.SameHost("https://localhost:443", tls.Service().Host) || config.SameHost("http://localhost", tls.Service().Host) {
		t.Error("SameHost mixes http and https on localhost")
	}
	// Off loopback only https is configured: its default port is left out.
	if got := (config.Environment{BaseURL: "https://api.example.com:443", ChainID: 1}).Service().Host; got != "api.example.com" {
		t.Errorf("api.example.com spelt %q", got)
	}
}
