package exchange_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestCertificateOutOfDateSaid: a host whose TLS certificate, from an
// authority the client trusts, has expired or is not yet valid is said so
// in fixed words (nothing of the certificate: its dates and names are the
// host's to choose), with the clock to check, not as a "network error".
func TestCertificateOutOfDateSaid(t *testing.T) {
	const says = "its TLS certificate has expired or is not yet valid (check this computer's clock)"
	now := time.Now()
	for name, valid := range map[string][2]time.Time{
		"expired":       {now.Add(-48 * time.Hour), now.Add(-24 * time.Hour)},
		"not yet valid": {now.Add(24 * time.Hour), now.Add(48 * time.Hour)},
	} {
		t.Run(name, func(t *testing.T) {
			srv, client := serverOfCertificate(t, valid[0], valid[1])
			c := exchange.New(config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), exchange.Options{HTTPClient: client})
			_, err := c.Login(ctx, exchange.APIKey("AK-certificate-test"))
			if err == nil || !strings.Contains(err.Error(), says) || strings.Contains(err.Error(), "svcwallet-test-host") {
				t.Fatalf("got %v, want it to say %q and nothing of the certificate", err, says)
			}
		})
	}
}

// serverOfCertificate is a TLS server on 127.0.0.1 whose self-signed
// certificate is valid from notBefore to notAfter, and a client that
// trusts it as an authority.
func serverOfCertificate(t *testing.T, notBefore, notAfter time.Time) (*httptest.Server, *http.Client) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "svcwallet-test-host"},
		NotBefore: notBefore, NotAfter: notAfter, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake refused is the test's point
	srv.StartTLS()
	t.Cleanup(srv.Close)
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	return srv, &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
}
