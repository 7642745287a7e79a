package config

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// Service is the exchange an environment reaches, whatever name the config
// gives it: the host of its base_url, where withdrawals and the session
// go, and its chain id, the chain its signatures are valid on. Two
// environments with one Service are one service under two names; a proxy
// and the direct URL of one service share the chain id but not the host.
//
// What identifies the money is the chain id and the account the login
// returned (the repeat guard and the journal's queries of unfinished
// withdrawals key by them, journal.Owner); where a signed request may be
// sent again is the whole Service (a resume refuses another one), and so
// is what a stored session may be sent to.
type Service struct {
	Host    string `json:"host"`
	ChainID uint64 `json:"chain_id"`
}

// maxHostLen bounds a host read back: a DNS name is at most 253 bytes,
// and a port and brackets add a few.
const maxHostLen = 262

// Service is the service e reaches: base_url's host (canonicalHost) and
// e's chain id.
func (e Environment) Service() Service {
	return Service{Host: hostOf(e.BaseURL), ChainID: e.ChainID}
}

// Reaches reports whether s, a service read back (a journal line, a kept
// session), is the one e reaches: its host is held to canonicalHost under
// base_url's scheme, as a line an earlier version wrote spells it as given
// (api.example.com., :0443) and is still this service's.
func (e Environment) Reaches(s Service) bool {
	return s.ChainID == e.ChainID && SameHost(e.BaseURL, s.Host)
}

// SameHost reports whether host, as a journal line or a kept session
// recorded it, is the host of the URL raw once both are canonical.
func SameHost(raw, host string) bool {
	u, err := url.Parse(raw)
	return err == nil && canonicalHost(u.Scheme, host) == hostOf(raw)
}

// hostOf is raw's host as a Service names it (canonicalHost); "" when raw
// is not an absolute URL.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return canonicalHost(u.Scheme, u.Host)
}

// canonicalHost is the one spelling of a host and port under scheme, so
// that two spellings of one host are one service (its journal lines, its
// kept session): lower case, an IP address in its shortest form, no
// trailing dot on a name, the port without leading zeros, an empty one
// (as in "api.example.com:") the scheme's default. Only one dot goes, and
// port 0 stays: "a.com.." and ":0" are no spelling of a.com, and a line
// naming them is another service's.
//
// The port is left out only where one scheme reaches the host: https's
// 443 on a host no config may reach by http (not loopback). On loopback,
// http://localhost (:80) and https://localhost (:443) are two services
// (a sandbox and a proxy), so the port stays; a line an earlier version
// wrote without it is read under the environment's scheme, as it was.
func canonicalHost(scheme, hostport string) string {
	u := url.URL{Host: strings.ToLower(hostport)}
	host, port := u.Hostname(), u.Port()
	if digits := strings.TrimLeft(port, "0"); digits != "" || port == "" {
		port = digits
	} else {
		port = "0"
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		host = ip.String()
	} else if name := strings.TrimSuffix(host, "."); name != "" {
		host = name
	}
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[scheme]
	}
	if scheme == "https" && port == "443" && !isLoopback(host) {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return host
}

// String names the service for a person: "api.example.com, chain 325".
func (s Service) String() string {
	return fmt.Sprintf("%s, chain %d", s.Host, s.ChainID)
}

// IsZero reports whether s names no service: a line written before
// services were recorded.
func (s Service) IsZero() bool { return s == Service{} }

// Check holds a Service read back (the journal, a state file) to the shape
// Environment.Service gives: a host of lower-case letters, digits and
// . - _ : [ ] % (urlhost.Check takes _ in a name and % before an IPv6
// zone), and a chain id.
func (s Service) Check() error {
	if s.ChainID == 0 {
		return errors.New("has no chain id")
	}
	if s.Host == "" || len(s.Host) > maxHostLen {
		return errors.New("has an empty or over-long host")
	}
	for i := 0; i < len(s.Host); i++ {
		switch c := s.Host[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case strings.IndexByte(".-_:[]%", c) >= 0:
		default:
			return errors.New("has a host that is not a lower-case host name or address")
		}
	}
	return nil
}

// SameService lists the pairs of environments of c that reach one service
// (a chain id in common): two names, or a proxy and the direct URL, for
// one account's money. Each pair is sorted, the list by name.
func (c Config) SameService() [][2]Environment {
	var out [][2]Environment
	names := c.Names()
	for i, a := range names {
		for _, b := range names[i+1:] {
			ea, eb := c.Environments[a], c.Environments[b]
			if ea.ChainID == eb.ChainID {
				out = append(out, [2]Environment{ea, eb})
			}
		}
	}
	return out
}
