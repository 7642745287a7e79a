package config

import (
	"errors"
	"fmt"
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

// Service is the service e reaches: base_url's host (lower case, without
// the scheme's default port) and e's chain id.
func (e Environment) Service() Service {
	return Service{Host: hostOf(e.BaseURL), ChainID: e.ChainID}
}

// hostOf is raw's host and port as a Service names it: lower case, the
// scheme's default port dropped; "" when raw is not an absolute URL.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	host := strings.ToLower(u.Host)
	switch {
	case u.Scheme == "https" && u.Port() == "443":
		host = strings.TrimSuffix(host, ":443")
	case u.Scheme == "http" && u.Port() == "80":
		host = strings.TrimSuffix(host, ":80")
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
