package withdrawal_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestUnusableBridge: the zero address, burn addresses and the paying
// account itself are never a bridge; an ordinary address is.
func TestUnusableBridge(t *testing.T) {
	const funding = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
	for addr, want := range map[string]string{
		"0x0000000000000000000000000000000000000000": "zero address",
		"0x000000000000000000000000000000000000dEaD": "burn address",
		"0x0000000000000000000000000000000000000001": "burn address",
		"0xdEAD000000000000000042069420694206942069": "burn address",
		"0xdead000000000000000000000000000000000000": "burn address",
		"0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF": "burn address",
		strings.ToLower(funding):                     "your own funding account",
		sandbox.BridgeFundingAddress:                 "",
		"0x5FbDB2315678afecb367f032d93F642f64180aa3": "",
	} {
		if got := withdrawal.UnusableBridge(addr, funding); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
	if got := withdrawal.UnusableBridge(funding, ""); got != "" {
		t.Errorf("without the funding account, its address is refused: %q", got)
	}
}

// TestDegenerateBridgeRefusedBeforeSigning: on first use (nothing pinned or
// recorded), a zero, burn or self address from withdrawal-info is refused
// with its reason by the check the review shows and by the Transfer's
// construction, and nothing is recorded; a pinned one is refused too.
func TestDegenerateBridgeRefusedBeforeSigning(t *testing.T) {
	r := newRig(t, 0, true)
	s, _ := r.client.Session()
	for addr, why := range map[string]string{
		"0x0000000000000000000000000000000000000000": "zero address",
		"0x000000000000000000000000000000000000dEaD": "burn address",
		s.FundingAccountAddress:                      "your own funding account",
	} {
		c := r.choice(sandbox.DestCompleted, "25")
		good := r.order(c)
		c.Info.FundingAddress = addr
		if _, err := withdrawal.NewOrder(c, withdrawal.PricedQuote{Quote: good.Quote}, s.FundingAccountAddress, r.env.Domain(), signer.NewNonce(), r.local.Now()); err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "nothing was signed") {
			t.Errorf("%s: NewOrder %v, want refused as %s", addr, err, why)
		}
		if why == "your own funding account" {
			continue // CheckBridge knows no account: NewOrder refuses it
		}
		if _, err := withdrawal.CheckBridge(r.env, r.pins, addr, r.local.Now()); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: CheckBridge %v, want refused as %s", addr, err, why)
		}
		if err := withdrawal.RecordBridge(r.env, r.pins, addr, r.local.Now()); err == nil {
			t.Errorf("%s: recorded", addr)
		}
		pinned := r.env
		pinned.BridgeFundingAddress = addr
		if _, err := withdrawal.CheckBridge(pinned, r.pins, addr, r.local.Now()); err == nil || !strings.Contains(err.Error(), "bridge_funding_address") {
			t.Errorf("%s pinned: %v, want refused naming the config's line", addr, err)
		}
		if err := withdrawal.ConfirmBridge(r.env, r.pins, sandbox.BridgeFundingAddress, addr, r.local.Now()); err == nil {
			t.Errorf("%s: confirmed as a change", addr)
		}
	}
	if _, err := os.Stat(r.pins); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused address was recorded: %v", err)
	}
}

// TestBridgeRecordedOnlyOnceAccepted: the first bridge address is recorded
// when the service accepts a withdrawal to it (202), not when one is
// signed and refused, nor when one got no answer; a refused first use
// leaves the next one a first use.
func TestBridgeRecordedOnlyOnceAccepted(t *testing.T) {
	r := newRig(t, 0, true)
	w := r.withdrawer()
	recorded := func() bool {
		tr, err := withdrawal.CheckBridge(r.env, r.pins, sandbox.BridgeFundingAddress, r.local.Now())
		if err != nil {
			t.Fatal(err)
		}
		return !tr.FirstUse
	}

	refused := r.order(r.choice(sandbox.DestFailed, "25"))
	r.ex.RemoveFromAddressBook(sandbox.DemoAccountID, sandbox.DestFailed)
	if sent := w.Execute(context.Background(), refused, demoKey); sent.Err == nil || sent.Lost != nil {
		t.Fatalf("a withdrawal to an address out of the book: %+v", sent)
	}
	if recorded() {
		t.Fatal("the bridge of a refused withdrawal was recorded")
	}

	r.ex.InjectWithdrawFault(func(string) sandbox.Fault { return sandbox.FaultBadGateway })
	if sent := w.Execute(context.Background(), r.order(r.choice(sandbox.DestRefunded, "26")), demoKey); sent.Lost == nil {
		t.Fatalf("every attempt answered 502, yet: %+v", sent)
	}
	if recorded() {
		t.Fatal("the bridge of an unanswered withdrawal was recorded")
	}

	r.ex.InjectWithdrawFault(nil)
	if sent := w.Execute(context.Background(), r.order(r.choice(sandbox.DestCompleted, "25")), demoKey); sent.Err != nil {
		t.Fatal(sent.Err)
	}
	if !recorded() {
		t.Fatal("the bridge of an accepted withdrawal was not recorded")
	}
	if st, err := os.Stat(r.pins); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("record: %v %v", st, err)
	}
}
