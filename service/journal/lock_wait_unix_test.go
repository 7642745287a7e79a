//go:build unix

package journal

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// heldPastGivingUp holds the lock file at path as another process would,
// and lets it go only once it has been waited for twice GiveUpAfter (on a
// clock whose every wait is over at once): a wait given up ends before.
// It returns what was said of the wait.
func heldPastGivingUp(t *testing.T, path string) (said *string) {
	t.Helper()
	other, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	said = new(string)
	ticks := 0
	t.Cleanup(osguard.SetLockWaits(osguard.LockWaits{
		After: func(d time.Duration) <-chan time.Time {
			if ticks++; time.Duration(ticks)*d == 2*osguard.GiveUpAfter {
				_ = syscall.Flock(int(other.Fd()), syscall.LOCK_UN)
			}
			ch := make(chan time.Time, 1)
			ch <- time.Time{}
			return ch
		},
		Say: func(w osguard.Waiting) { *said = w.String() },
	}))
	return said
}

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
	said := heldPastGivingUp(t, j.Path()+".lock")
	unlock, err := j.Exclusive()
	if err != nil {
		t.Fatalf("the journal's lock, let go past GiveUpAfter: %v", err)
	}
	unlock()
	if !strings.Contains(*said, j.Path()) || !strings.Contains(*said, "waits for it to finish") {
		t.Errorf("the wait was said as %q", *said)
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
	said := heldPastGivingUp(t, WrittenPath(j.Path())+".lock")
	if err := j.Append(genIntent("production", "acct-1", "q-held", 1, genT0)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(*said, "waits for it to finish") {
		t.Errorf("the wait was said as %q", *said)
	}
	r, err := readWritten(j.Path())
	if err != nil || r == nil || !slices.ContainsFunc(r.Unanswered, func(m Remembered) bool { return m.QuoteID == "q-held" }) {
		t.Fatalf("the record does not hold the intent written before its send: %+v, %v", r, err)
	}
}

// TestRecordReadUnderTheWriteLock: the record is read only holding the
// write lock every append and every replacement of the record takes, so
// no process holds it open while another renames a new one over it
// (which Windows refuses, refusing that send). A check, or an acceptance
// of the journal as it is, while another holds the lock waits, and gives
// up past GiveUpAfter (it guards no send here); it read or replaced the
// record beside the other's write.
func TestRecordReadUnderTheWriteLock(t *testing.T) {
	for name, use := range map[string]func(*Journal) error{
		"check":  func(j *Journal) error { return j.CheckWritten(false) },
		"accept": func(j *Journal) error { _, err := j.AcceptAsItIs(); return err },
	} {
		t.Run(name, func(t *testing.T) {
			j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Append(genIntent("production", "acct-1", "q-1", 1, genT0)); err != nil {
				t.Fatal(err)
			}
			said := heldPastGivingUp(t, WrittenPath(j.Path())+".lock")
			var held *osguard.LockHeldError
			if err := use(j); !errors.As(err, &held) {
				t.Fatalf("while another holds the write lock: %v, want a wait given up", err)
			}
			if !strings.Contains(*said, j.Path()) {
				t.Errorf("the wait was said as %q", *said)
			}
		})
	}
}

// TestCheckBeforeSendWaitsForTheWriteLock: the check that guards a
// signature or a send the person answered waits for the write lock
// without end, as the intent's line after it does, and says so. Given up,
// the send was refused because another svcwallet held the lock a while.
func TestCheckBeforeSendWaitsForTheWriteLock(t *testing.T) {
	j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(genIntent("production", "acct-1", "q-1", 1, genT0)); err != nil {
		t.Fatal(err)
	}
	said := heldPastGivingUp(t, WrittenPath(j.Path())+".lock")
	if err := j.CheckWrittenBeforeSend(true); err != nil {
		t.Fatalf("the check before a send, the write lock let go past GiveUpAfter: %v", err)
	}
	if !strings.Contains(*said, "waits for it to finish") {
		t.Errorf("the wait was said as %q", *said)
	}
}

// TestWriteLockHeldBySaysWhatItDoes: an answer's line that gives up
// waiting for the write lock says what its holder does: a check of the
// journal against its record was said "writing the journal", and a
// person told to end a writer.
func TestWriteLockHeldBySaysWhatItDoes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(genIntent("production", "acct-1", "q-1", 1, genT0)); err != nil {
		t.Fatal(err)
	}
	checking, _ := Open(path) // another process, checking
	unlock, err := checking.lockWrites(false, markCheck)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	t.Cleanup(osguard.SetLockWaits(osguard.LockWaits{After: func(time.Duration) <-chan time.Time {
		ch := make(chan time.Time, 1)
		ch <- time.Time{}
		return ch
	}}))
	err = j.AppendState(Entry{Time: genT0, Kind: KindState, Env: "production", AccountID: "acct-1", QuoteID: "q-1", State: "SENDING"})
	var held *osguard.LockHeldError
	if !errors.As(err, &held) || !strings.Contains(err.Error(), "checking the journal "+path) || strings.Contains(err.Error(), "writing") || !strings.HasPrefix(err.Error(), "svcwallet waited") {
		t.Fatalf("an answer's line given up while another checks: %v", err)
	}
}
