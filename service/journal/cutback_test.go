package journal

import (
	"errors"
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
