package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFailedSyncWhoseCutBackFailsIsNotRead: a line whose fsync failed, and
// whose cut back failed too, stayed whole in the journal, newline and all:
// its writer said it unwritten (an intent whose request was then not sent,
// an answer said unrecorded) while every reader found it. It is sealed
// where it stands (its first byte made one no entry starts with), so it
// reads as a damaged line; where the seal fails too, the error says the
// line may be in the journal all the same, which is then what is read.
func TestFailedSyncWhoseCutBackFailsIsNotRead(t *testing.T) {
	for name, sealFails := range map[string]bool{"sealed": false, "neither cut nor sealed": true} {
		t.Run(name, func(t *testing.T) {
			j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Append(genIntent("production", "acct-1", "q-first", 1, genT0)); err != nil {
				t.Fatal(err)
			}
			was := openAppend
			withFailingDisk(t, failingFile{room: 1 << 20, syncFails: true, truncFails: true})
			if sealFails {
				wasSeal := openSeal
				openSeal = func(string) (sealFile, error) { return nil, syscall.EIO }
				t.Cleanup(func() { openSeal = wasSeal })
			}
			err = j.Append(genIntent("production", "acct-1", "q-unsent", 2, genT0.Add(time.Minute)))
			if !errors.Is(err, syscall.EIO) {
				t.Fatalf("Append whose sync fails: %v, want EIO", err)
			}
			mayBe := strings.Contains(err.Error(), "may be in the journal all the same")
			entries, skipped, rerr := j.Scan()
			if rerr != nil {
				t.Fatal(rerr)
			}
			read := len(entries) == 2 && entries[1].QuoteID == "q-unsent"
			switch {
			case sealFails && (!mayBe || !read):
				t.Fatalf("neither cut nor sealed: %q, read %d entries; want it said that the line may be in the journal, and it read", err, len(entries))
			case !sealFails && (mayBe || read || skipped != 1 || len(entries) != 1):
				t.Fatalf("sealed: %q, read %d entries, %d skipped; want it unwritten, and read as a damaged line", err, len(entries), skipped)
			}
			if recs, _, err := j.UnfinishedRecords(genOwner); err != nil || len(recs) != map[bool]int{false: 1, true: 2}[sealFails] {
				t.Fatalf("the repeat guard reads %d unfinished (%v)", len(recs), err)
			}
			openAppend = was
			if err := j.Append(genIntent("production", "acct-1", "q-next", 3, genT0.Add(2*time.Minute))); err != nil {
				t.Fatal(err)
			}
			if recs, err := j.RecordsOf(genOwner, "q-next"); err != nil || len(recs) != 1 {
				t.Fatalf("the line after it: %v, %v", recs, err)
			}
		})
	}
}

// TestSealLandsOnTheLineSaidUnwritten: the seal is written on the first
// byte of the line said unwritten, and only in the journal it was written
// to. After a torn fragment, whose seal the write put first, that byte is
// past the seal: the line's own, not the fragment's.
// A file that is no longer the journal (replaced meanwhile) is never
// written; the error says the line may be in the journal all the same.
func TestSealLandsOnTheLineSaidUnwritten(t *testing.T) {
	open := func(t *testing.T) (*Journal, string) {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		j, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Append(genIntent("production", "acct-1", "q-first", 1, genT0)); err != nil {
			t.Fatal(err)
		}
		return j, path
	}
	unsent := genIntent("production", "acct-1", "q-unsent", 2, genT0.Add(time.Minute))

	t.Run("after a torn fragment", func(t *testing.T) {
		j, path := open(t)
		appendRaw(t, path, `{"kind":"intent","quote`)
		withFailingDisk(t, failingFile{room: 1 << 20, syncFails: true, truncFails: true})
		if err := j.Append(unsent); !errors.Is(err, syscall.EIO) || strings.Contains(err.Error(), "may be") {
			t.Fatalf("Append whose sync and cut back fail: %v, want it sealed", err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "\n#\"time\":\"2026-03-02T10:01") {
			t.Errorf("the seal is not the first byte of the line after the fragment: %q", b)
		}
		if entries, skipped, err := j.Scan(); err != nil || len(entries) != 1 || skipped != 2 {
			t.Errorf("Scan = %d entries, %d skipped, %v; want the first, the fragment and the sealed line skipped", len(entries), skipped, err)
		}
	})

	t.Run("the journal replaced meanwhile", func(t *testing.T) {
		j, path := open(t)
		other := filepath.Join(t.TempDir(), "other.jsonl")
		was, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(other, was, 0o600); err != nil {
			t.Fatal(err)
		}
		wasSeal := openSeal
		openSeal = func(string) (sealFile, error) { return wasSeal(other) }
		t.Cleanup(func() { openSeal = wasSeal })
		withFailingDisk(t, failingFile{room: 1 << 20, syncFails: true, truncFails: true})
		if err := j.Append(unsent); !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "may be in the journal all the same") {
			t.Fatalf("a seal of a file that is not the journal: %v, want the line said maybe in the journal", err)
		}
		if b, _ := os.ReadFile(other); string(b) != string(was) {
			t.Errorf("the file that is not the journal was written: %q", b)
		}
	})
}
