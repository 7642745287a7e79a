//go:build unix

package journal

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestAppendGuarded: the guard runs while the journal's lock is held (a
// second holder cannot take it), its refusal is returned and nothing is
// written; allowed, the entry is written, and the lock is free after.
func TestAppendGuarded(t *testing.T) {
	j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.OpenFile(j.Path()+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	held := func() error {
		if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
			return errors.New("the guard ran without the journal's lock")
		}
		return nil
	}
	e := Entry{Time: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), Kind: KindIntent, Env: "sandbox", QuoteID: "q-1"}
	refusal := errors.New("refused")
	if err := j.AppendGuarded(func() error {
		if err := held(); err != nil {
			return err
		}
		return refusal
	}, e); err != refusal {
		t.Fatalf("AppendGuarded returned %v, want the guard's refusal", err)
	}
	if entries, err := j.Entries(); err != nil || len(entries) != 0 {
		t.Fatalf("a refused entry was written: %+v %v", entries, err)
	}
	if err := j.AppendGuarded(held, e); err != nil {
		t.Fatal(err)
	}
	if entries, err := j.Entries(); err != nil || len(entries) != 1 {
		t.Fatalf("entries %+v %v, want the allowed one", entries, err)
	}
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatalf("the lock is still held after AppendGuarded: %v", err)
	}
}
