package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawBridgeChangeWayForward (review item 3): a bridge address
// other than the recorded one stops the withdrawal and names the exact step
// that goes on: --accept-bridge with the new address, or the console. The
// flag accepts exactly the address the service gives, nothing else; the
// change is recorded only once the withdrawal is confirmed.
func TestWithdrawBridgeChangeWayForward(t *testing.T) {
	state := withdrawState(t)
	r := newStatusRig(t)
	const old = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	pins := filepath.Join(state, "bridge_pins.json")
	recorded := `{"local": {"address": "` + old + `", "first_seen": "2026-01-02T00:00:00Z"}}`
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pins, []byte(recorded), 0o600); err != nil {
		t.Fatal(err)
	}
	wantPins := func(address string) {
		t.Helper()
		b, err := os.ReadFile(pins)
		if err != nil || !strings.Contains(string(b), address) {
			t.Fatalf("the recorded bridge address is not %s: %s (%v)", address, b, err)
		}
	}
	args := func(extra ...string) []string { return withdrawArgs(sandbox.DestCompleted, "25", extra...) }

	r.runWithdraw(withdrawRunOpts{}, args("--yes")...).want(t, exitFailed,
		"but "+old+" has been used for environment \"local\" since 2026-01-02: nothing was signed",
		"run this command again with --accept-bridge "+sandbox.BridgeFundingAddress+" (that address exactly; the change is recorded in "+pins,
		"or confirm it in the console's withdrawal review (svcwallet --env local --config "+r.config+")")

	// Another address, or none at all, is refused; nothing is recorded.
	r.runWithdraw(withdrawRunOpts{}, args("--yes", "--accept-bridge", old)...).want(t, exitFailed,
		"--accept-bridge: the service gave bridge funding address "+sandbox.BridgeFundingAddress+", not the accepted "+old+": nothing was signed or recorded")
	r.runWithdraw(withdrawRunOpts{}, args("--yes", "--accept-bridge", "0x1234")...).want(t, exitUsage, "--accept-bridge:")
	wantPins(old)

	// The new address: reviewed as replacing the old one; "n" records nothing.
	r.runWithdraw(withdrawRunOpts{}, args("--dry-run", "--accept-bridge", sandbox.BridgeFundingAddress)...).
		want(t, 0, "replaces "+old+", accepted as announced")
	r.runWithdraw(withdrawRunOpts{terminal: true, stdin: "n\n"}, args("--accept-bridge", sandbox.BridgeFundingAddress)...).
		want(t, exitFailed, "not confirmed")
	wantPins(old)
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraw requests before the change was accepted", n)
	}
	// Lower case names the same address; confirmed, it is recorded and
	// the withdrawal goes.
	r.runWithdraw(withdrawRunOpts{}, args("--yes", "--accept-bridge", strings.ToLower(sandbox.BridgeFundingAddress))...).
		want(t, 0, "recorded for environment local in place of "+old, "Withdrawal accepted")
	wantPins(sandbox.BridgeFundingAddress)
	r.runWithdraw(withdrawRunOpts{}, args("--yes")...).want(t, 0, "Withdrawal accepted")
	// Given when nothing changed, it must still name the address signed.
	r.runWithdraw(withdrawRunOpts{}, args("--yes", "--accept-bridge", old)...).want(t, exitFailed,
		"--accept-bridge "+old+" is not the bridge funding address the service gives, "+sandbox.BridgeFundingAddress)
	if n := r.withdraws.Load(); n != 2 {
		t.Errorf("%d withdraw requests, want 2", n)
	}
}

// TestWithdrawPinnedBridgeWayForward: an address pinned in the config is
// changed only there: the refusal names the line and the file, and
// --accept-bridge does not override it.
func TestWithdrawPinnedBridgeWayForward(t *testing.T) {
	r := newJournalingRig(t)
	const pinned = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	f, err := os.OpenFile(r.config, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("bridge_funding_address = \"" + pinned + "\"\n")
	f.Close()
	step := `set bridge_funding_address = "` + sandbox.BridgeFundingAddress + `" under [env.local] in ` + r.config
	for _, extra := range [][]string{{"--yes"}, {"--yes", "--accept-bridge", sandbox.BridgeFundingAddress}} {
		r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", extra...)...).
			want(t, exitFailed, "pins "+pinned+" (bridge_funding_address in the config): nothing was signed", step)
	}
	if n := r.withdraws.Load(); n != 0 {
		t.Errorf("%d withdraw requests", n)
	}
}
