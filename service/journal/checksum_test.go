package journal

import (
	"hash"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// TestAppendDuringASlowSumIsNotRefused: doctor's check sums every byte
// svcwallet wrote, which takes a while on a long journal; it held the
// write lock all along, so another process's answer line waited for it
// and gave up past GiveUpAfter, said unrecorded. The sum holds no lock:
// an append made while it runs is written at once, and the check, which
// takes the lock again to look at the end, records it and finds the
// journal as svcwallet wrote it.
func TestAppendDuringASlowSumIsNotRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Open(path) // another process
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(genIntent("production", "acct-1", "q-1", 1, genT0)); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{}, 1)
	t.Cleanup(osguard.SetLockWaits(osguard.LockWaits{After: func(time.Duration) <-chan time.Time {
		select {
		case waited <- struct{}{}:
		default:
		}
		ch := make(chan time.Time, 1)
		ch <- time.Time{}
		return ch
	}}))
	answer := Entry{Time: genT0.Add(time.Second), Kind: KindAccepted, Env: "production", AccountID: "acct-1", QuoteID: "q-1"}
	was := sumTo
	t.Cleanup(func() { sumTo = was })
	sums := 0
	sumTo = func(h hash.Hash, r io.Reader) error {
		if sums++; sums == 1 { // the sum under way
			done := make(chan error, 1)
			go func() { done <- other.Append(answer) }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("an append during the sum: %v", err)
				}
			case <-waited:
				t.Error("an append during the sum waited for the write lock")
				go func() { <-done }()
			}
		}
		return was(h, r)
	}
	if err := j.CheckWritten(true); err != nil {
		t.Fatalf("the check whose sum an append came during: %v", err)
	}
	r, err := readWritten(path)
	if err != nil || r == nil || len(r.Unanswered) != 0 {
		t.Fatalf("the record after the check: %+v, %v; want the answer written during the sum recorded", r, err)
	}
	if err := j.CheckWritten(true); err != nil {
		t.Fatalf("the check again: %v", err)
	}
}
