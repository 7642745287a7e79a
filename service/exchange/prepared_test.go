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
