//go:build unix

package journal

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// TestExclusiveWaitsForTheOtherSend: the journal's lock guards a send
// (the check and the intent's line are one step), so a wait on it is said,
// naming the journal, and never given up: the lock is taken when the
// other process lets it go, however long it held it. Given up, the
// withdrawal would stop with no word of why; waited without a word, it
// hung.
func TestExclusiveWaitsForTheOtherSend(t *testing.T) {
	j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.OpenFile(j.Path()+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	// The wait to say it is over at once; any later one is a wait to give
	// up, reported (unanswered) to the test.
	first := true
	later := make(chan time.Duration)
	var said string
	defer osguard.SetLockWaits(osguard.LockWaits{
		After: func(d time.Duration) <-chan time.Time {
			if !first {
				later <- d
			}
			first = false
			ch := make(chan time.Time, 1)
			ch <- time.Time{}
			return ch
		},
		Say: func(w osguard.Waiting) {
			said = w.String()
			_ = syscall.Flock(int(other.Fd()), syscall.LOCK_UN)
		},
	})()
	got := make(chan error, 1)
	go func() {
		unlock, err := j.Exclusive()
		if err == nil {
			unlock()
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("the journal's lock, let go: %v", err)
		}
	case d := <-later:
		t.Fatalf("the journal's lock set a wait of %s to give up", d)
	}
	if !strings.Contains(said, j.Path()) {
		t.Errorf("the wait was said as %q, naming no journal", said)
	}
}

// TestIntentWaitsForTheWrittenRecord: an intent's line is recorded
// (written.json: what a journal put back is checked against) before its
// send, so the record's lock held by another is waited for without end
// and the record holds the intent once it is let go. Given up, the send
// went on with the intent unrecorded, after the wait said "svcwallet
// gives up": a journal put back then lost that withdrawal unnoticed.
func TestIntentWaitsForTheWrittenRecord(t *testing.T) {
	j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.OpenFile(WrittenPath(j.Path())+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	first := true
	later := make(chan time.Duration)
	var said string
	defer osguard.SetLockWaits(osguard.LockWaits{
		After: func(d time.Duration) <-chan time.Time {
			if !first {
				later <- d
			}
			first = false
			ch := make(chan time.Time, 1)
			ch <- time.Time{}
			return ch
		},
		Say: func(w osguard.Waiting) {
			said = w.String()
			_ = syscall.Flock(int(other.Fd()), syscall.LOCK_UN)
		},
	})()
	got := make(chan error, 1)
	go func() { got <- j.Append(genIntent("production", "acct-1", "q-held", 1, genT0)) }()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case d := <-later:
		t.Fatalf("the written record's lock, before a send, set a wait of %s to give up", d)
	}
	if !strings.Contains(said, "waits for it to finish") {
		t.Errorf("the wait was said as %q", said)
	}
	r, err := readWritten(j.Path())
	if err != nil || r == nil || !slices.ContainsFunc(r.Unanswered, func(m Remembered) bool { return m.QuoteID == "q-held" }) {
		t.Fatalf("the record does not hold the intent written before its send: %+v, %v", r, err)
	}
}
