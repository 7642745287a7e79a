package withdrawal_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestRolledBackJournalSignsNothing is the attack of issue 33 item 4: a
// withdrawal gets no answer; an older copy of the journal, from before
// it, is put back. The identical withdrawal is refused before anything is
// signed (the journal lost lines svcwallet wrote, and names the
// withdrawal it lost), nothing is sent; once the journal is accepted as
// it now is (the user has looked), withdrawals are signed again.
func TestRolledBackJournalSignsNothing(t *testing.T) {
	r := newRig(t, 0, false)
	done := r.order(r.choice(sandbox.DestCompleted, "10"))
	if sent := r.withdrawer().Execute(context.Background(), done, demoKey); sent.Err != nil {
		t.Fatal(sent.Err)
	}
	backup, err := os.ReadFile(r.journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	o, _ := r.lostWithdrawal()
	r.holding.Store(false)
	if err := os.WriteFile(r.journal.Path(), backup, 0o600); err != nil {
		t.Fatal(err)
	}
	sentBefore, loads := r.withdraws.Load(), 0
	key := func() (signer.Key, error) { loads++; return demoKey() }
	again := r.order(r.choice(sandbox.DestCompleted, "25"))
	sent := r.withdrawer().Execute(context.Background(), again, key)
	var lost *journal.RolledBackError
	if !errors.As(sent.Err, &lost) || len(lost.Unanswered) != 1 || lost.Unanswered[0].QuoteID != o.Quote.QuoteID {
		t.Fatalf("on a rolled-back journal: %v, want it refused naming %s", sent.Err, o.Quote.QuoteID)
	}
	if loads != 0 || r.withdraws.Load() != sentBefore {
		t.Fatalf("%d keys loaded, %d withdraw requests: signed on a rolled-back journal", loads, r.withdraws.Load()-sentBefore)
	}
	if _, err := r.withdrawer().Prepare(context.Background(), again, common.HexToAddress(sandbox.DemoAddress)); !errors.As(err, &lost) {
		t.Fatalf("prepared on a rolled-back journal: %v", err)
	}
	if _, err := r.journal.AcceptAsItIs(); err != nil {
		t.Fatal(err)
	}
	if sent := r.withdrawer().Execute(context.Background(), r.order(r.choice(sandbox.DestCompleted, "25")), key); sent.Err != nil || loads != 1 {
		t.Fatalf("once accepted: %v, %d keys loaded", sent.Err, loads)
	}
}
