package journal

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// failingFile is the journal file of a failing disk: writes stop after
// room bytes (short, then ENOSPC), syncs fail when syncFails, and the cut
// back of a failed line when truncFails.
type failingFile struct {
	*os.File
	room                  int
	syncFails, truncFails bool
}

func (f *failingFile) Truncate(size int64) error {
	if f.truncFails {
		return syscall.EIO
	}
	return f.File.Truncate(size)
}

func (f *failingFile) Write(b []byte) (int, error) {
	if len(b) <= f.room {
		f.room -= len(b)
		return f.File.Write(b)
	}
	n, _ := f.File.Write(b[:f.room])
	f.room = 0
	return n, syscall.ENOSPC
}

func (f *failingFile) Sync() error {
	if f.syncFails {
		return syscall.EIO
	}
	return f.File.Sync()
}

// withFailingDisk makes the journal's appends go through f's faults for
// the rest of the test.
func withFailingDisk(t *testing.T, fault failingFile) {
	t.Helper()
	was := openAppend
	openAppend = func(path string) (appendFile, error) {
		af, err := was(path)
		if err != nil {
			return nil, err
		}
		ff := fault
		ff.File = af.(*os.File)
		return &ff, nil
	}
	t.Cleanup(func() { openAppend = was })
}

// TestAppendThatFailsLeavesWholeLines: an append that fails, after a short
// write (a full disk) or at its fsync (a failing device), is reported,
// never taken as written, and leaves the journal as it was: whole lines,
// no torn fragment, and not the line reported unwritten.
func TestAppendThatFailsLeavesWholeLines(t *testing.T) {
	for name, fault := range map[string]failingFile{
		"a short write": {room: 79},
		"a failed sync": {room: 1 << 20, syncFails: true},
	} {
		t.Run(name, func(t *testing.T) {
			j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
			e := Entry{Time: at, Kind: KindIntent, Env: "prod", AccountID: "acct-1", QuoteID: "q-1"}
			if err := j.Append(e); err != nil {
				t.Fatal(err)
			}
			before, err := os.ReadFile(j.Path())
			if err != nil {
				t.Fatal(err)
			}
			withFailingDisk(t, fault)
			e.Kind, e.Time = KindAccepted, at.Add(time.Second)
			err = j.Append(e)
			if err == nil || !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EIO) {
				t.Fatalf("Append on a failing disk: %v, want its error", err)
			}
			after, rerr := os.ReadFile(j.Path())
			if rerr != nil || string(after) != string(before) || !strings.HasSuffix(string(after), "\n") {
				t.Fatalf("journal after a failed append:\n%q\nwant it as it was:\n%q", after, before)
			}
			if recs, err := j.Records(); err != nil || len(recs) != 1 || recs[0].Answered {
				t.Fatalf("records %+v (%v): want the intent alone, unanswered", recs, err)
			}
		})
	}
}

// TestNewJournalWhoseDirectoryFailsToSync: the first line of a new journal
// is taken as written only once its directory is synced too (else a power
// loss can lose the file with the intent in it); a failed directory fsync
// is reported, and the line cut off again.
func TestNewJournalWhoseDirectoryFailsToSync(t *testing.T) {
	was := syncDir
	syncDir = func(string) error { return syscall.EIO }
	t.Cleanup(func() { syncDir = was })
	j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	e := Entry{Time: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), Kind: KindIntent, Env: "prod", AccountID: "acct-1", QuoteID: "q-1"}
	if err := j.Append(e); !errors.Is(err, syscall.EIO) {
		t.Fatalf("Append with a failing directory fsync: %v, want its error", err)
	}
	if b, err := os.ReadFile(j.Path()); err != nil || len(b) != 0 {
		t.Fatalf("journal after a failed append: %q (%v), want it empty", b, err)
	}
}

// TestShortWriteLeftTornIsNeverAnEntry: a short write on a full disk whose
// cut back fails too leaves a fragment of the line it reported unwritten
// (all of an intent but its newline, or some of it). The next append
// starts on a line of its own and seals the fragment, which reads as a
// damaged line, counted as skipped, never as an entry: the whole intent
// before its missing newline read as a withdrawal made, unanswered, whose
// request was never sent. The withdrawal appended after it is neither
// glued to it nor hidden from the repeat guard.
func TestShortWriteLeftTornIsNeverAnEntry(t *testing.T) {
	unsent := genIntent("production", "acct-1", "q-unsent", 2, genT0.Add(time.Minute))
	b, err := json.Marshal(unsent)
	if err != nil {
		t.Fatal(err)
	}
	for name, room := range map[string]int{"all but its newline": len(b), "some of it": 79} {
		t.Run(name, func(t *testing.T) {
			j, err := Open(filepath.Join(t.TempDir(), "journal.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Append(genIntent("production", "acct-1", "q-first", 1, genT0)); err != nil {
				t.Fatal(err)
			}
			was := openAppend
			withFailingDisk(t, failingFile{room: room, truncFails: true})
			if err := j.Append(unsent); !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("Append on a full disk: %v, want ENOSPC", err)
			}
			openAppend = was // room again
			next := genIntent("production", "acct-1", "q-next", 3, genT0.Add(2*time.Minute))
			if err := j.Append(next); err != nil {
				t.Fatal(err)
			}
			entries, skipped, err := j.Scan()
			if err != nil || skipped != 1 || len(entries) != 2 || entries[0].QuoteID != "q-first" || entries[1].QuoteID != "q-next" {
				t.Fatalf("read %d entries, %d skipped (%v): want q-first and q-next, the fragment skipped", len(entries), skipped, err)
			}
			recs, skipped, err := j.UnfinishedRecords(Owner{Env: "production", AccountID: "acct-1"})
			if err != nil || skipped != 1 || len(recs) != 2 {
				t.Fatalf("the repeat guard reads %d unfinished, %d skipped (%v): want q-first and q-next, the fragment skipped", len(recs), skipped, err)
			}
			for _, r := range recs {
				if r.QuoteID == "q-unsent" {
					t.Fatalf("the intent reported unwritten reads as a withdrawal: %+v", r)
				}
			}
		})
	}
}

// TestStateRecordedOnceAcrossProcesses: two followers in two processes
// learn the same state at once; the second's check waits for the write
// lock the first holds from its check to its line, so it reads that line
// and writes none. Without the lock both checks found the state
// unrecorded and both wrote it.
func TestStateRecordedOnceAcrossProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	state := Entry{Time: genT0, Kind: KindAccepted, Env: "production", AccountID: "acct-1", QuoteID: "q-1"}
	if err := j.Append(state); err != nil {
		t.Fatal(err)
	}
	state.Kind, state.State = KindState, "SENDING"
	waiting, release := make(chan struct{}, 1), make(chan time.Time)
	t.Cleanup(osguard.SetLockWaits(osguard.LockWaits{After: func(time.Duration) <-chan time.Time {
		select {
		case waiting <- struct{}{}:
		default:
		}
		return release
	}}))
	done := make(chan error, 1)
	meanwhile := func() { // between the first's check and its line
		go func() { done <- other.AppendState(state) }()
		select { // the other's line written, or its check waiting for the lock
		case err := <-done:
			done <- err
		case <-waiting:
		}
	}
	was := openAppend
	openAppend = func(path string) (appendFile, error) {
		if then := meanwhile; then != nil {
			meanwhile = nil
			then()
		}
		return was(path)
	}
	t.Cleanup(func() { openAppend = was })
	if err := j.AppendState(state); err != nil {
		t.Fatal(err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if n := strings.Count(string(b), `"SENDING"`); n != 1 {
		t.Fatalf("SENDING journaled %d times, want once:\n%s", n, b)
	}
}
