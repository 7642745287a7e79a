package exchange

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"strings"
	"syscall"
)

// DeploymentName is one name a real deployment chooses in its own words
// (docs/real-service.md, "Names a deployment chooses", is this table): its
// config key, what it is, the interface's default, and what a wrong one
// looks like.
type DeploymentName struct {
	Key, What, Default, WrongLooks string
}

// DeploymentNames are the names, in the order a configuration sets them.
var DeploymentNames = []DeploymentName{
	{"auth_url", "the host logins go to", "none", "the probe cannot reach it (a host not found, a refused connection, a certificate for another name), or a login answers 404: another host of the deployment"},
	{"base_url", "the host of every other call, where the session goes", "none", "the probe cannot reach it, or every call answers 404"},
	{"market_data_url", "the host of /time", "none", "the probe cannot reach it, or /time answers without the server's time: another host of the deployment"},
	{"chain_id", "the chain every signature names: production 325, testnet 326, staging and dev 327", "none", "signatures refused with 1012 (invalid signature chain id), and a wallet login refused as an invalid signature"},
	{"domain_name", "the EIP-712 domain's name: the brand followed by \" Exchange\"", "Service Exchange", "every signature refused as not matching its payload (2002), and a wallet login refused as an invalid signature"},
	{"cookie_name", "the session cookie a login sets", "svc", "every login fails: it answers without a session cookie of that name"},
	{"account_id_header", "the header that carries the account id (a 0x address there)", "X-Service-Account-Id", "every login fails: it answers without an account id in that header"},
}

// Suspect is the config key an error of a probe or a login points at, and
// what was seen of it.
type Suspect struct {
	Key  string // a DeploymentNames key
	Seen string
}

// NoSessionCookieError: a login answered without the session cookie the
// environment names (a wrong cookie_name, or a misconfigured service).
type NoSessionCookieError struct{ Cookie string }

func (e *NoSessionCookieError) Error() string {
	return "login answered without a session cookie named " + e.Cookie + "; check the environment's cookie_name, or the service may be misconfigured"
}

// NoAccountHeaderError: a login answered without the account-id header the
// environment names.
type NoAccountHeaderError struct{ Header string }

func (e *NoAccountHeaderError) Error() string {
	return "login answered without an account id in the " + e.Header + " header; check the environment's account_id_header"
}

// SuspectOfHost reads a probe's answer from one host (its Label is the
// host's key) for what a wrong host name looks like.
func SuspectOfHost(h HostProbe) (Suspect, bool) {
	if h.Err == nil {
		return Suspect{}, false
	}
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var hostname x509.HostnameError
	switch {
	case errors.As(h.Err, &dns) && dns.IsNotFound:
		return Suspect{h.Label, "its host name is not found"}, true
	case errors.As(h.Err, &hostname) || errors.As(h.Err, &cert):
		return Suspect{h.Label, "its certificate is not for that host name"}, true
	case errors.Is(h.Err, syscall.ECONNREFUSED):
		return Suspect{h.Label, "nothing answers on that host and port"}, true
	}
	return Suspect{h.Label, "it cannot be reached: " + transportKind(h.Err)}, true
}

// SuspectOfClock reads the market-data host's answer to /time: one that
// answered, but not with a time, is another host of the deployment.
func SuspectOfClock(err error) (Suspect, bool) {
	var te *TransportError
	if err == nil || errors.As(err, &te) {
		return Suspect{}, false
	}
	var ae *APIError
	if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
		return Suspect{"market_data_url", "it answers /time with 404: it is not the market-data host"}, true
	}
	return Suspect{"market_data_url", "it answers /time without the server's time"}, true
}

// SuspectOfLogin reads a failed login for the name it points at: the
// cookie, the header, the chain id, the domain name or the auth host.
func SuspectOfLogin(err error) (Suspect, bool) {
	var nc *NoSessionCookieError
	var nh *NoAccountHeaderError
	var ae *APIError
	switch {
	case errors.As(err, &nc):
		return Suspect{"cookie_name", "the login set no cookie named " + nc.Cookie}, true
	case errors.As(err, &nh):
		return Suspect{"account_id_header", "the login gave no " + nh.Header + " header"}, true
	case errors.As(err, &ae) && ae.Code == CodeBadChainID:
		return Suspect{"chain_id", "the service refused the signature's chain id (1012)"}, true
	case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
		return Suspect{"auth_url", "the login answered 404: it is not the auth host"}, true
	case errors.As(err, &ae) && ae.Status == http.StatusUnauthorized && strings.Contains(strings.ToLower(ae.Message), "invalid signature"):
		return Suspect{"domain_name", "the wallet login's signature did not verify there: the domain name or the chain id differ from the deployment's"}, true
	}
	return Suspect{}, false
}
