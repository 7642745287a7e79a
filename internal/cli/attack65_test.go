package cli

import (
	"time"

	"github.com/shopspring/decimal"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestAttack65RestoredStateSubmitTwice: the state folder restored from a
// backup taken between prepare and submit (every file of it, so no rollback
// shows) forgets the submission. Submitted again, the service refuses the
// Transfer's used nonce, and the command tells the user to sign again, which
// pays a second time: it must say the Transfer was most likely paid.
func TestAttack65RestoredStateSubmitTwice(t *testing.T) {
	r := newStatusRig(t)
	state := withdrawState(t)
	out := r.prepareOffline(t)
	backup := map[string][]byte{}
	entries, err := os.ReadDir(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			b, err := os.ReadFile(filepath.Join(state, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			backup[e.Name()] = b
		}
	}
	sig := signFile(t, out, sandbox.DemoPrivateKey)
	r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", sig).want(t, 0, "Withdrawal accepted")
	now, _ := os.ReadDir(state)
	for _, e := range now {
		if _, ok := backup[e.Name()]; !ok && e.Type().IsRegular() {
			_ = os.Remove(filepath.Join(state, e.Name()))
		}
	}
	for name, b := range backup {
		if err := os.WriteFile(filepath.Join(state, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	res := r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", sig)
	t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	r.wantBalance("9975")
	said := res.stdout + res.stderr
	if strings.Contains(said, "sign again") || !strings.Contains(said, "paid") {
		t.Errorf("the second submit tells the user to sign again, not that the Transfer was most likely paid already")
	}
}

// TestAttack65SubmitAfterIdenticalPaid: a Transfer prepared for offline
// signing, then the identical withdrawal sent and paid on this machine
// while the file is away being signed: submitting the file pays the same
// money again, with exit 0 and no word of the withdrawal made since.
func TestAttack65SubmitAfterIdenticalPaid(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	out := r.prepareOffline(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...).want(t, 0, "Withdrawal accepted")
	r.clock.Advance(time.Minute)
	res := r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", signFile(t, out, sandbox.DemoPrivateKey))
	t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	if r.balance().Equal(decimal.RequireFromString("9950")) {
		t.Errorf("the same 25 USDT to the same address was paid twice (balance 9950), exit %d", res.code)
	}
}

// TestAttack65TwoPreparedBothPaid: the same withdrawal prepared twice (a
// second file, as after losing track of the first), both signed and
// submitted: both are paid, and neither the second preparation nor the
// second submit says an identical one was prepared or paid, as withdraw
// warns of an identical withdrawal made before it.
func TestAttack65TwoPreparedBothPaid(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	first := r.prepareOffline(t)
	second := filepath.Join(t.TempDir(), "again.json")
	prep := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner, "--out", second)...)
	prep.want(t, 0, "Prepared for offline signing")
	r.runWithdraw(withdrawRunOpts{}, "submit", first, "--signature", signFile(t, first, sandbox.DemoPrivateKey)).want(t, 0, "Withdrawal accepted")
	res := r.runWithdraw(withdrawRunOpts{}, "submit", second, "--signature", signFile(t, second, sandbox.DemoPrivateKey))
	t.Logf("second submit exit %d\nstderr:\n%s", res.code, res.stderr)
	if r.balance().Equal(decimal.RequireFromString("9950")) && !strings.Contains(prep.stderr+res.stderr, "identical") {
		t.Errorf("paid twice (balance 9950) with no word of the identical withdrawal at the second prepare or submit")
	}
}
