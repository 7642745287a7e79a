package exchange_test

import (
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestOnlyTheStoredCredentialsRenewalIsKept: OnRenewed is given the
// session the credential of an adopted one opens when it lapses, so a
// store keeps it; a Login by another credential (the console's l with a
// builder's new API key, of the same account) is the client's alone, and
// so is that login's own renewal: neither may take the stored one's place.
func TestOnlyTheStoredCredentialsRenewalIsKept(t *testing.T) {
	w := newWorld(t, sandbox.Options{SessionTTL: time.Hour})
	var renewed []exchange.Kept
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{OnRenewed: func(k exchange.Kept) { renewed = append(renewed, k) }})
	k, _ := c.Kept()
	c.Adopt(k, exchange.APIKey(sandbox.DemoAPIKey))
	w.Clock.Advance(time.Hour)
	if _, err := c.WithdrawalInfo(ctx); err != nil {
		t.Fatal(err)
	}
	if len(renewed) != 1 {
		t.Fatalf("the stored key's renewal of the adopted session: given %d times to OnRenewed, want 1", len(renewed))
	}
	if _, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	w.Clock.Advance(time.Hour)
	if _, err := c.WithdrawalInfo(ctx); err != nil {
		t.Fatal(err)
	}
	if len(renewed) != 1 {
		t.Errorf("a Login's session, or its renewal, was given to OnRenewed (%d sessions given, want the one renewal of the stored)", len(renewed))
	}
}
