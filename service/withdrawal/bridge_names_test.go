package withdrawal_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestBridgeTrustAcrossNamesOfOneService: the bridge address trusted on
// first use is the service's, whatever the environment is called, as the
// journal's repeat check holds (journal.Owner: its chain id). A second
// name for one service (an --alias, a renamed environment) showed another
// address as a first use, to trust without a word, where it is a change of
// the address that service's withdrawals went to. Another chain id is
// another service.
func TestBridgeTrustAcrossNamesOfOneService(t *testing.T) {
	const bridge, other = sandbox.BridgeFundingAddress, "0x5FbDB2315678afecb367f032d93F642f64180aa3"
	pins := withdrawal.BridgePinsPath(t.TempDir())
	first := config.Environment{Name: "prod", ChainID: 325}
	if err := withdrawal.RecordBridge(first, pins, bridge, t0); err != nil {
		t.Fatal(err)
	}
	alias := config.Environment{Name: "prod-eu", ChainID: 325}
	var changed *withdrawal.BridgeChangedError
	_, err := withdrawal.CheckBridge(alias, pins, other, t0.Add(time.Hour))
	if !errors.As(err, &changed) || changed.Expected != bridge || !strings.Contains(err.Error(), `"prod"`) {
		t.Fatalf("another address under a second name of the service: %v; want a change from %s recorded for prod", err, bridge)
	}
	if tr, err := withdrawal.CheckBridge(alias, pins, bridge, t0.Add(time.Hour)); err != nil || tr.FirstUse || !tr.SeenSince.Equal(t0) {
		t.Fatalf("the recorded address under a second name: %+v %v; want it trusted since %v", tr, err, t0)
	}
	if tr, err := withdrawal.CheckBridge(config.Environment{Name: "testnet", ChainID: 326}, pins, other, t0); err != nil || !tr.FirstUse {
		t.Fatalf("another chain id: %+v %v; want a first use", tr, err)
	}
	// A confirmation of a change from an address that is not the one
	// recorded for the service (it moved meanwhile) records nothing.
	if err := withdrawal.ConfirmBridge(alias, pins, other, bridge, t0.Add(time.Hour)); !errors.As(err, new(*withdrawal.BridgeMovedError)) {
		t.Fatalf("a confirmation from another address than the service's recorded one: %v", err)
	}
	// Confirmed under the second name, it is that name's; the first keeps its own.
	if err := withdrawal.ConfirmBridge(alias, pins, bridge, other, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := withdrawal.CheckBridge(alias, pins, other, t0.Add(2*time.Hour)); err != nil {
		t.Fatalf("the confirmed address under the second name: %v", err)
	}
	if _, err := withdrawal.CheckBridge(first, pins, other, t0.Add(2*time.Hour)); !errors.As(err, &changed) {
		t.Fatalf("the first name took the second's confirmation: %v", err)
	}
}

// TestOldPinTakesItsChainIDWhenUsedAgain: a pin recorded before pins kept
// their chain id is its name's alone, so a second name for the service is
// shown another address as a first use; once a withdrawal to the same
// address is accepted again under the pin's own name, the pin keeps that
// chain id (and its first date), and the second name is held to it.
func TestOldPinTakesItsChainIDWhenUsedAgain(t *testing.T) {
	const bridge, other = sandbox.BridgeFundingAddress, "0x5FbDB2315678afecb367f032d93F642f64180aa3"
	pins := withdrawal.BridgePinsPath(t.TempDir())
	old := `{"prod": {"address": "` + bridge + `", "first_seen": "` + t0.Format(time.RFC3339) + `"}}` + "\n"
	if err := os.WriteFile(pins, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	first, alias := config.Environment{Name: "prod", ChainID: 325}, config.Environment{Name: "prod-eu", ChainID: 325}
	if tr, err := withdrawal.CheckBridge(alias, pins, other, t0.Add(time.Hour)); err != nil || !tr.FirstUse {
		t.Fatalf("an old pin under a second name: %+v %v; want the old pin its name's alone until used again", tr, err)
	}
	if err := withdrawal.RecordBridge(first, pins, bridge, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	var changed *withdrawal.BridgeChangedError
	if _, err := withdrawal.CheckBridge(alias, pins, other, t0.Add(2*time.Hour)); !errors.As(err, &changed) || changed.Expected != bridge || changed.RecordedFor != "prod" {
		t.Fatalf("another address under a second name once the old pin was used again: %v; want a change from %s recorded for prod", err, bridge)
	}
	if tr, err := withdrawal.CheckBridge(first, pins, bridge, t0.Add(2*time.Hour)); err != nil || !tr.SeenSince.Equal(t0) {
		t.Fatalf("the pin's own name: %+v %v; want it trusted since %v", tr, err, t0)
	}
}
