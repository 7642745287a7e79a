package exchange

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestCredentialsPreparedOnce: the same credentials are prepared once for
// every answer (a cookie of 4 KiB cost each of a board's thousands of
// answers 0.7 ms), and another login's are prepared anew, so its cookie
// said back is found.
func TestCredentialsPreparedOnce(t *testing.T) {
	var p preparedCredentials
	first := p.of([]string{"sandbox-demo-key", "CK-session-cookie-one-1"})
	if again := p.of([]string{"sandbox-demo-key", "CK-session-cookie-one-1"}); &again[0] != &first[0] {
		t.Fatal("the same credentials were prepared again")
	}
	next := p.of([]string{"sandbox-demo-key", "7f3a9c1e0b2d4c68a5e1f0"})
	if !holdsAny("tx-7f3a9c1e0b2d4c68a5e1f0", next) {
		t.Fatal("the cookie of the next login is not looked for")
	}
}

// TestOwnSecretUsesThePreparedCredentials: an id typed (a board's paste of
// thousands) is looked through with the credentials a request prepared,
// not prepared again for each.
func TestOwnSecretUsesThePreparedCredentials(t *testing.T) {
	c := &Client{apiKey: "sandbox-demo-key-0123"}
	c.session.cookie = "CK-session-cookie-one-1"
	request := c.prepared.of(c.ownSecrets("")) // a request with no login in flight
	if !c.OwnSecret("q-sandbox-demo-key-0123") || c.OwnSecret("q-7f3a9c1e0b2d") {
		t.Fatal("OwnSecret does not tell the session's API key from another id")
	}
	if typed := c.prepared.of(c.ownSecrets()); &typed[0] != &request[0] {
		t.Fatal("an id typed prepared the credentials again")
	}
}

// TestErrorMaskUsesThePreparedCredentials: an error's message is masked
// with the credentials prepared for the session (Client.prepared), not
// prepared again for each error. The prepared list is swapped for one
// that holds another key: only a mask that uses it hides that key.
func TestErrorMaskUsesThePreparedCredentials(t *testing.T) {
	const planted = "planted-credential-0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"code":1001,"message":"refused ` + planted + `"}`))
	}))
	defer srv.Close()
	c := New(config.SandboxEnvironment(srv.URL, 1), Options{APIKey: "sandbox-demo-key-0123"})
	c.prepared.of(c.ownSecrets(""))
	c.prepared.cs = credentials([]string{planted})
	_, err := c.ServerTime(context.Background())
	var e *APIError
	if !errors.As(err, &e) || strings.Contains(e.Message, planted) || !strings.Contains(e.Message, secretSaidBack) {
		t.Fatalf("error %v: want its message masked with the prepared credentials", err)
	}
}
