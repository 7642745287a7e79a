package exchange

import "testing"

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
