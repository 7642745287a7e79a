package withdrawal_test

import (
	"errors"
	"time"

	"context"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestAttack65RestoredStateSubmitSaysSignAgain: the state folder (journal
// and its record of what was written) restored from a backup taken between
// prepare and submit hides that the prepared Transfer was paid. Submitted
// again, the service refuses its used nonce (4007), and the user is told
// "This signature was already used: sign again": signing again pays twice.
// The refusal must say the Transfer was most likely paid already.
func TestAttack65RestoredStateSubmitSaysSignAgain(t *testing.T) {
	r := newRig(t, 0, false)
	p, sig := r.prepared(r.order(r.choice(sandbox.DestCompleted, "25")), sandbox.DemoPrivateKey)
	backup := map[string][]byte{}
	for _, path := range []string{r.journal.Path(), journal.WrittenPath(r.journal.Path())} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		backup[path] = b
	}
	if sent := r.withdrawer().Submit(context.Background(), p, sig); sent.Err != nil {
		t.Fatalf("first submit: %v", sent.Err)
	}
	for path, b := range backup {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	found, err := r.find(p.File())
	if err != nil {
		t.Fatalf("after the restore the file is not found: %v", err)
	}
	sent := r.withdrawer().Submit(context.Background(), found, sig)
	if sent.Err == nil {
		t.Fatal("the restored Transfer was paid a second time")
	}
	said := exchange.Explain(sent.Err).Error()
	t.Logf("said: %s", said)
	if strings.Contains(said, "sign again") || !strings.Contains(said, "already") || !strings.Contains(said, "paid") {
		t.Errorf("second submit said %q: it tells the user to sign again, not that the Transfer was most likely paid already", said)
	}
}

// TestAttack65PreparedOvertakenWhileSignedOffline: a run awaiting its
// signature is refused when an identical withdrawal was sent meanwhile
// (*OvertakenError). A Transfer prepared for offline signing awaits its
// signature from prepare to submit, yet an identical withdrawal sent and
// paid in that time does not stop its submit: the same money goes twice.
func TestAttack65PreparedOvertakenWhileSignedOffline(t *testing.T) {
	r := newRig(t, 0, false)
	p, sig := r.prepared(r.order(r.choice(sandbox.DestCompleted, "25")), sandbox.DemoPrivateKey)
	// Meanwhile, the same withdrawal is sent and paid from this machine.
	if other := r.withdrawer().Execute(context.Background(), r.order(r.choice(sandbox.DestCompleted, "25")), demoKey); other.Err != nil {
		t.Fatalf("the identical withdrawal: %v", other.Err)
	}
	r.advance(time.Minute)
	found, err := r.find(p.File())
	if err != nil {
		t.Fatal(err)
	}
	sent := r.withdrawer().Submit(context.Background(), found, sig)
	if _, ok := errors.AsType[*withdrawal.OvertakenError](sent.Err); !ok {
		t.Errorf("submitted after an identical withdrawal was paid since it was prepared: %v (%d withdraw requests), want *withdrawal.OvertakenError",
			sent.Err, r.withdraws.Load())
	}
}
