//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// TestDoctorJournalLockHeldSaysToEndItsHolder: a journal whose write lock
// another process holds past GiveUpAfter cannot be checked, and doctor's
// fix is the lock's (end its holder, or wait), never the state folder's
// permissions, which are not at fault.
func TestDoctorJournalLockHeldSaysToEndItsHolder(t *testing.T) {
	cfg, _ := localConfig(t)
	state := t.TempDir()
	dir := filepath.Join(state, "svcwallet")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "journal.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	other, err := os.OpenFile(filepath.Join(dir, "journal.jsonl.written.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(osguard.SetLockWaits(osguard.LockWaits{After: func(time.Duration) <-chan time.Time {
		ch := make(chan time.Time, 1)
		ch <- time.Time{}
		return ch
	}}))
	_, rep, out := doctorState(t, state, nil, noTmux, "--config", cfg)
	var w *doctorCheck
	for i := range rep.Checks {
		if c := &rep.Checks[i]; c.Check == "journal" && strings.Contains(c.Detail, "cannot be checked") {
			w = c
		}
	}
	if w == nil || !strings.Contains(w.Fix, "end the process that holds the journal's lock") {
		t.Fatalf("the journal's lock held: %+v, want the fix to end its holder:\n%s", w, out)
	}
}
