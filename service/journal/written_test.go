package journal

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// rolledBack is the *RolledBackError of j's check, or nil (failing on any
// other error).
func rolledBack(t *testing.T, j *Journal, whole bool) *RolledBackError {
	t.Helper()
	err := j.CheckWritten(whole)
	var lost *RolledBackError
	if err != nil && !errors.As(err, &lost) {
		t.Fatalf("CheckWritten: %v", err)
	}
	return lost
}

// TestJournalRolledBackIsNoticed is the attack of issue 33 item 4: after a
// withdrawal got no answer, an older copy of the journal is put back (a
// restored backup, a synced folder, cp). It is noticed as lost lines, with
// the unanswered withdrawal it lost named; a line written meanwhile does
// not make it whole again; a copy as long but otherwise (or a byte changed
// before the last 4 KiB, which the whole check sums) is noticed too; the
// journal is accepted as it now is only when asked.
func TestJournalRolledBackIsNoticed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 { // more than the 4 KiB the quick check sums
		for _, l := range genLines(t, genQuoteID(i), i, true) {
			e, err := parseJournalLine(l)
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Append(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	if lost := rolledBack(t, j, true); lost != nil {
		t.Fatalf("a journal svcwallet wrote: %v", lost)
	}
	backup, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(genIntent("production", "acct-1", "q-unanswered", 1, genT0.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	grown, _ := os.ReadFile(path)

	if err := os.WriteFile(path, backup, 0o600); err != nil { // cp journal.jsonl.bak journal.jsonl
		t.Fatal(err)
	}
	lost := rolledBack(t, j, true)
	if lost == nil || lost.Recorded != int64(len(grown)) || lost.Now != int64(len(backup)) || lost.Changed ||
		!slices.ContainsFunc(lost.Missing, func(r Remembered) bool { return r.QuoteID == "q-unanswered" }) ||
		!strings.Contains(lost.Error(), "q-unanswered") || !strings.Contains(lost.Error(), "lost lines") {
		t.Fatalf("an older copy put back: %+v", lost)
	}
	// No intent is written to it: its send would go with the record
	// behind the journal.
	if err := j.Append(genIntent("production", "acct-2", genQuoteID(99), 99, genT0.Add(2*time.Hour))); err == nil {
		t.Fatal("an intent was written to a rolled-back journal")
	}
	// Lines written to it meanwhile (another run's answers), past the
	// length recorded, do not make it whole.
	for i := 0; ; i++ {
		if fi, _ := os.Stat(path); fi.Size() > int64(len(grown)) {
			break
		}
		state := Entry{Time: genT0.Add(2 * time.Hour), Kind: KindState, Env: "production", AccountID: "acct-2", QuoteID: genQuoteID(100 + i), State: "SENDING"}
		if err := j.Append(state); err != nil {
			t.Fatal(err)
		}
	}
	if rolledBack(t, j, false) == nil {
		t.Fatal("lines written to the rolled-back journal made it whole")
	}
	// As long as what was written, but not it.
	other := append(slices.Clone(backup), strings.Repeat(" ", len(grown)-len(backup)-1)+"\n"...)
	if err := os.WriteFile(path, other, 0o600); err != nil {
		t.Fatal(err)
	}
	if lost := rolledBack(t, j, false); lost == nil || !lost.Changed {
		t.Fatalf("another journal as long: %+v", lost)
	}
	// One byte changed far before the end: only the whole check sums it.
	changed := slices.Clone(grown)
	changed[10] ^= 1
	if err := os.WriteFile(path, append(changed, strings.Repeat("\n", 5000)...), 0o600); err != nil {
		t.Fatal(err)
	}
	if lost := rolledBack(t, j, false); lost != nil {
		t.Fatalf("the quick check sums the whole journal: %v", lost)
	}
	if lost := rolledBack(t, j, true); lost == nil || !lost.Changed {
		t.Fatalf("a byte changed before the last 4 KiB: %+v", lost)
	}
	// Accepted as it now is, once the user has looked.
	if err := os.WriteFile(path, backup, 0o600); err != nil {
		t.Fatal(err)
	}
	if n, err := j.AcceptAsItIs(); err != nil || n != 0 {
		t.Fatalf("AcceptAsItIs: %d unanswered, %v", n, err)
	}
	if lost := rolledBack(t, j, true); lost != nil {
		t.Fatalf("accepted, yet: %v", lost)
	}
	state := Entry{Time: genT0.Add(2 * time.Hour), Kind: KindState, Env: "production", AccountID: "acct-1", QuoteID: "q-other", State: "SENDING"}
	if err := j.Append(state); err != nil {
		t.Fatal(err)
	}
	if lost := rolledBack(t, j, true); lost != nil {
		t.Fatalf("written after it was accepted: %v", lost)
	}
}

// TestJournalRecordReadBackIsChecked: the record beside the journal is a
// private file read back as an answer is: one that is not svcwallet's (a
// planted or damaged one, a hash that does not hold together, withdrawals
// that are not ids) makes the journal one that cannot be trusted, never
// one taken as whole; a missing one (an earlier version's journal) is
// made from the journal as it is.
func TestJournalRecordReadBackIsChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(genIntent("production", "acct-1", "q-1", 1, genT0)); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(WrittenPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(WrittenPath(path)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the record is %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	for name, b := range map[string]string{
		"garbage":               "not json",
		"another field":         strings.Replace(string(good), `"version"`, `"evil":1,"version"`, 1),
		"another length":        strings.Replace(string(good), `"length":`, `"length":1`, 1),
		"another sum":           strings.Replace(string(good), `"sum":"`, `"sum":"0`, 1)[:len(good)],
		"an id that is not one": strings.Replace(string(good), `"quote_id":"q-1"`, `"quote_id":"q 1; rm -rf"`, 1),
		"two values":            string(good) + string(good),
	} {
		if err := os.WriteFile(WrittenPath(path), []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
		if lost := rolledBack(t, j, false); lost == nil || lost.Unreadable == nil && !lost.Changed && lost.Now == lost.Recorded {
			t.Errorf("%s: %+v, want the journal refused", name, lost)
		}
	}
	if err := os.Remove(WrittenPath(path)); err != nil {
		t.Fatal(err)
	}
	if lost := rolledBack(t, j, true); lost != nil {
		t.Fatalf("no record: %v", lost)
	}
	if b, err := os.ReadFile(WrittenPath(path)); err != nil || string(b) != string(good) {
		t.Fatalf("the record made anew is\n%s (%v)\nwant\n%s", b, err, good)
	}
}

// TestChangedJournalSaysSomeBytes: a journal changed in place is said to
// have changed among the bytes svcwallet wrote, never that all of them
// changed, which one edited byte does not make true.
func TestChangedJournalSaysSomeBytes(t *testing.T) {
	said := (&RolledBackError{Path: "j", Recorded: 9000, Now: 9000, Changed: true}).Error()
	if !strings.Contains(said, "bytes among the first 9000") || strings.Contains(said, "its first 9000 bytes changed") {
		t.Errorf("said %q", said)
	}
}

// TestRolledBackNamesTheJournalEscaped: a journal in a folder holding a
// no-break space, which reads as a space and is another character, is
// named escaped (safetext.Shown) in each of the three words of a journal
// not as svcwallet wrote it: the record unreadable, bytes changed, lines
// lost.
func TestRolledBackNamesTheJournalEscaped(t *testing.T) {
	path := "/home/me/st\u00a0ate/svcwallet/journal.jsonl"
	for _, e := range []RolledBackError{
		{Path: path, Unreadable: os.ErrPermission},
		{Path: path, Changed: true, Recorded: 10, Now: 10},
		{Path: path, Recorded: 10, Now: 5},
	} {
		if got := e.Error(); strings.Contains(got, "\u00a0") || !strings.Contains(got, `st\u00a0ate`) {
			t.Errorf("%+v said %q", e, got)
		}
	}
}

// TestSendLineWhoseRecordCannotBeWritten: a line written before a send
// (an intent) whose record of what was written cannot be brought up to it
// (the record's lock cannot be had: a folder planted at its name here, a
// state folder others made read-only) is refused, never left written, so
// nothing is sent. It was kept and its send went on, said nowhere, with the record
// left behind it: a journal put back to before the intent then read as
// whole, and the withdrawal it lost as never made.
func TestSendLineWhoseRecordCannotBeWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(genIntent("production", "acct-1", "q-first", 1, genT0)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	lock := plantRecordLock(t, path)
	second := genIntent("production", "acct-1", "q-second", 2, genT0.Add(time.Minute))
	if err := j.Append(second); err == nil || !strings.Contains(err.Error(), WrittenPath(path)) {
		t.Fatalf("an intent whose record could not be written: %v, want an error naming the record", err)
	}
	if now, _ := os.ReadFile(path); string(now) != string(before) {
		t.Fatalf("the refused intent's line stayed in the journal:\n%s", now)
	}
	// The record writable again, the intent is written and recorded.
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(second); err != nil {
		t.Fatal(err)
	}
	if lost := rolledBack(t, j, true); lost != nil {
		t.Fatalf("after the record came back: %v", lost)
	}
}

// plantRecordLock puts a folder where the journal at path's record keeps
// its lock, so the record cannot be brought up to date, and returns it.
func plantRecordLock(t *testing.T, path string) string {
	t.Helper()
	lock := WrittenPath(path) + ".lock"
	if err := os.Remove(lock); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if err := os.Mkdir(lock, 0o700); err != nil {
		t.Fatal(err)
	}
	return lock
}

// truncThen is the journal file of an append whose cut back (Truncate)
// is preceded by then, once: another process appending right then.
type truncThen struct {
	appendFile
	then *func()
}

func (f truncThen) Truncate(size int64) error {
	if then := *f.then; then != nil {
		*f.then = nil
		then()
	}
	return f.appendFile.Truncate(size)
}

// TestNoLineLandsBetweenALineAndItsCut: an intent refused because its
// record cannot be brought up to it is cut back holding the write lock
// every appender takes, so another process's answer line appended right
// as the cut is made waits for it and lands after, whole; the refused
// intent is gone. Without the lock, the answer landed between the check
// that the intent was the journal's last line and the cut, and was cut
// with it: a state the service answered, lost.
func TestNoLineLandsBetweenALineAndItsCut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(genIntent("production", "acct-1", "q-first", 1, genT0)); err != nil {
		t.Fatal(err)
	}
	// A record that is not svcwallet's: the next intent cannot be recorded.
	if err := os.WriteFile(WrittenPath(path), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	other, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	waiting, release := make(chan struct{}, 1), make(chan time.Time)
	t.Cleanup(osguard.SetLockWaits(osguard.LockWaits{After: func(time.Duration) <-chan time.Time {
		select {
		case waiting <- struct{}{}:
		default:
		}
		return release
	}}))
	answer := Entry{Time: genT0.Add(time.Minute), Kind: KindState, Env: "production", AccountID: "acct-1", QuoteID: "q-first", State: "SENDING"}
	done := make(chan error, 1)
	meanwhile := func() {
		go func() { done <- other.Append(answer) }()
		select { // the answer written, or waiting for the lock
		case err := <-done:
			done <- err
		case <-waiting:
		}
	}
	was := openAppend
	openAppend = func(path string) (appendFile, error) {
		f, err := was(path)
		return truncThen{f, &meanwhile}, err
	}
	t.Cleanup(func() { openAppend = was })
	if err := j.Append(genIntent("production", "acct-1", "q-second", 2, genT0.Add(time.Minute))); err == nil {
		t.Fatal("an intent whose record could not be written was taken")
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	now, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(now), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "q-first") || !strings.Contains(lines[1], `"SENDING"`) {
		t.Fatalf("want the first intent and the answer appended meanwhile, the refused intent cut:\n%s", now)
	}
}

// TestCheckWithNothingWrittenMakesNoFile: a check on a machine where
// svcwallet never wrote (no journal, no record) finds nothing lost and
// takes no write lock, so a look (history, the review) makes no lock file
// in a state folder it only reads.
func TestCheckWithNothingWrittenMakesNoFile(t *testing.T) {
	dir := t.TempDir()
	j, err := Open(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.CheckWritten(false); err != nil {
		t.Fatal(err)
	}
	if made, _ := os.ReadDir(dir); len(made) != 0 {
		t.Fatalf("a check with nothing written made %s", made[0].Name())
	}
}
