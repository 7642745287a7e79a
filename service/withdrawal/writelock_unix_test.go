//go:build unix

package withdrawal_test

import (
	"context"
	"net/http"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestSendWaitsForTheJournalsWriteLock: the checks that guard a
// withdrawal the person answered, the one before its signature and the
// one with its intent's line, wait for the journal's write lock without
// end while another process holds it, and the withdrawal is sent once it
// is let go. Given up after GiveUpAfter, the withdrawal was refused for a
// lock another svcwallet held a while (its intent's line waits anyway).
func TestSendWaitsForTheJournalsWriteLock(t *testing.T) {
	r := newRig(t, 0, false)
	exchangetest.Must(t, os.WriteFile(r.journal.Path(), nil, 0o600)) // a journal to check
	other, err := os.OpenFile(journal.WrittenPath(r.journal.Path())+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	exchangetest.Must(t, err)
	t.Cleanup(func() { other.Close() })
	hold := func() { exchangetest.Must(t, syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)) }
	hold() // during the check before the signature
	ticks, letGo := 0, atomic.Int32{}
	t.Cleanup(osguard.SetLockWaits(osguard.LockWaits{After: func(d time.Duration) <-chan time.Time {
		if ticks++; time.Duration(ticks)*d == 2*osguard.GiveUpAfter {
			ticks = 0
			letGo.Add(1)
			_ = syscall.Flock(int(other.Fd()), syscall.LOCK_UN)
		}
		ch := make(chan time.Time, 1)
		ch <- time.Time{}
		return ch
	}}))
	again := func(req *http.Request) { // the clock asked after the signature's check: held again for the send's
		if req.URL.Path == exchange.PathTime && letGo.Load() == 1 {
			hold()
		}
	}
	r.before.Store(&again)
	sent := r.withdrawer().Execute(context.Background(), r.order(r.choice(sandbox.DestCompleted, "25")), demoKey)
	if sent.Err != nil || letGo.Load() != 2 {
		t.Fatalf("the journal's write lock held past GiveUpAfter before the signature and before the send (%d let go): %v, want both waited for and the withdrawal sent", letGo.Load(), sent.Err)
	}
}
