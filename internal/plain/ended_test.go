package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestSessionEndedAsksTheLoginAgain: a session that ends and cannot be
// renewed (here one the service refuses with no credential to renew it; a
// renewal answering another account ends one alike) is said, and the
// login is asked again, as the console opens its login: Home offered no
// way to log in, so its "log in again" named nothing that acted, and every
// choice failed. A wallet login made before it is still said at the end.
func TestSessionEndedAsksTheLoginAgain(t *testing.T) {
	r := newRig(t)
	client := r.console.Targets[0].Client
	deposit := typed("deposit")
	// The session is replaced by one the service refuses, as a kept one it
	// revoked is.
	deposit[0].before = func() {
		client.Adopt(exchange.Kept{Session: exchange.Session{AccountID: sandbox.DemoAccountID, Method: "API key"}, Cookie: "ended"}, nil)
	}
	out, err := r.run(steps(typed("Wallet signature", "sandbox demo key"), deposit, logIn, typed("quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ended := strings.Index(out, "The service refused the session (it ended or was revoked): log in again.\n")
	if ended < 0 || !strings.Contains(out[ended:], "How do you log in?") || strings.Contains(out[ended:strings.Index(out[ended:], "How do you log in?")+ended], "Home: what next?") {
		t.Fatalf("the login is not asked right after the session ended:\n%s", out)
	}
	wants(t, out[ended:], "Logged in to "+r.env.Name+" by API key", "Goodbye: the wallet login was signed and sent; nothing else was signed or sent.")
}

// TestSessionEndedInAFlowAsksTheLoginAgain: a flow that says the end
// itself and goes home (a quote refused as the session ended) is followed
// by the login too, not by Home's choices that all need a session.
func TestSessionEndedInAFlowAsksTheLoginAgain(t *testing.T) {
	r := newRig(t)
	client := r.console.Targets[0].Client
	withdraw := typed("withdraw", "ARBITRUM", "USDT", sandbox.DestCompleted, "25", "2")
	withdraw[len(withdraw)-1].before = func() {
		client.Adopt(exchange.Kept{Session: exchange.Session{AccountID: sandbox.DemoAccountID, Method: "API key"}, Cookie: "ended"}, nil)
	}
	out, err := r.run(steps(logIn, withdraw, typed("Back home"), logIn, typed("quit"))...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	refused := strings.Index(out, "Quote refused: The service refused the session (it ended or was revoked): log in again.\n")
	if refused < 0 || !strings.Contains(out[refused:], "How do you log in?") || strings.Contains(out[refused:strings.Index(out[refused:], "How do you log in?")+refused], "Home: what next?") {
		t.Fatalf("the login is not asked once the flow went home:\n%s", out)
	}
}
