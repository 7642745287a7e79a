package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// The reads of one account's unfinished withdrawals and of named ones:
// through the index (index.go), so that they cost what they return, not
// the journal's length. Each returns what AccountRecords would of the same
// withdrawals, in the same order.

// UnfinishedRecords is o's unfinished withdrawals (Unfinished of its
// AccountRecords), newest first, with the count of the journal's lines
// skipped: what Home counts, the repeat check looks through, and a refresh
// asks about. A nil journal has none.
func (j *Journal) UnfinishedRecords(o Owner) ([]Record, int, error) {
	if j == nil {
		return nil, 0, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	lines, skipped, err := j.linesOf(openLines)
	if err != nil {
		return nil, skipped, err
	}
	return Unfinished(fold(lines, o)), skipped, nil
}

// openLines picks the withdrawals the index holds unfinished.
func openLines(v *view, _ io.ReaderAt) ([]keyID, error) { return v.openIDs(), nil }

// RepeatRecords is UnfinishedRecords with o's withdrawals that ended
// FAILED and started at or after since (Record.FailedSince), the start of the
// window the repeat check computes: what it looks through, as a FAILED
// one stays debited. The index picks them by the state and start it
// keeps, so the read costs what it returns.
func (j *Journal) RepeatRecords(o Owner, since time.Time) ([]Record, int, error) {
	if j == nil {
		return nil, 0, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	lines, skipped, err := j.linesOf(func(v *view, _ io.ReaderAt) ([]keyID, error) {
		return append(slices.Clone(v.openIDs()), v.failedIDs(since)...), nil
	})
	if err != nil {
		return nil, skipped, err
	}
	var recs []Record
	for _, r := range fold(lines, o) {
		if !r.Finished() || r.FailedSince(since) {
			recs = append(recs, r)
		}
	}
	return recs, skipped, nil
}

// RecordsOf is the records of o's withdrawals quoteIDs names, those the
// journal holds, newest first: what a follower of those ids needs
// (follow.OwnOf), or a resume of one. A nil journal has none.
func (j *Journal) RecordsOf(o Owner, quoteIDs ...string) ([]Record, error) {
	if j == nil {
		return nil, nil
	}
	lines, _, err := j.linesOfQuotes(o, quoteIDs)
	if err != nil {
		return nil, err
	}
	return fold(lines, o), nil
}

// EntriesOf is the journal's entries of o's withdrawal quoteID, in file
// order: its timeline. None when it is not o's.
func (j *Journal) EntriesOf(o Owner, quoteID string) ([]Entry, error) {
	if j == nil {
		return nil, nil
	}
	lines, _, err := j.linesOfQuotes(o, []string{quoteID})
	if err != nil || len(fold(lines, o)) == 0 {
		return nil, err
	}
	entries := make([]Entry, len(lines))
	for i, l := range lines {
		entries[i] = l.Entry
	}
	return entries, nil
}

// PreparedOf is the line that prepared o's withdrawal quoteID for offline
// signing, when the journal holds one (ok).
func (j *Journal) PreparedOf(o Owner, quoteID string) (e Entry, ok bool, err error) {
	l, _, ok, err := j.preparedLine(o, quoteID)
	return l.Entry, ok, err
}

// PreparedMark is where the line that prepared o's withdrawal quoteID for
// offline signing starts (ok when the journal holds one): RecordsSince
// reads from it the withdrawals made since the Transfer was prepared, as
// Mark's does those made since the mark was taken.
func (j *Journal) PreparedMark(o Owner, quoteID string) (m Mark, ok bool, err error) {
	l, file, ok, err := j.preparedLine(o, quoteID)
	if !ok || err != nil {
		return Mark{}, false, err
	}
	return Mark{file: file, end: l.off}, true, nil
}

// preparedLine is PreparedOf's line, with the journal file it was read
// from.
func (j *Journal) preparedLine(o Owner, quoteID string) (line, os.FileInfo, bool, error) {
	if j == nil {
		return line{}, nil, false, nil
	}
	lines, file, err := j.linesOfQuotes(o, []string{quoteID})
	for _, l := range lines {
		if l.ok && l.Kind == KindPrepared && l.Prepared.Kind == PreparedWithdrawal && o.likely(l.Entry) {
			return l, file, true, err
		}
	}
	return line{}, nil, false, err
}

// linesOfQuotes reads the lines of o's withdrawals quoteIDs, in file
// order, and tells the journal file they were read from.
func (j *Journal) linesOfQuotes(o Owner, quoteIDs []string) ([]line, os.FileInfo, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	ids := make([]keyID, len(quoteIDs))
	for i, q := range quoteIDs {
		ids[i] = idOf(keyFor(o.AccountID, q))
	}
	var file os.FileInfo
	lines, _, err := j.linesOf(func(v *view, _ io.ReaderAt) ([]keyID, error) {
		file = v.file
		return ids, nil
	})
	return lines, file, err
}

// Tally is what the journal holds, as doctor says it.
type Tally struct {
	Withdrawals, Unfinished int
	Skipped                 int // lines that could not be read
}

// Tally reads the whole journal, every line checked as always and none
// through the index file, which it writes anew: a check of the file that
// keeps no record in memory.
func (j *Journal) Tally() (Tally, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f, torn, err := j.refresh(true)
	if err != nil || f == nil {
		return Tally{}, err
	}
	f.Close()
	v := j.view
	t := Tally{Skipped: v.skipped}
	if torn {
		t.Skipped++
	}
	count := func(st status) {
		if st&stRecord != 0 {
			t.Withdrawals++
		}
		if st.open() {
			t.Unfinished++
		}
	}
	for i := range v.snap.len() {
		if v.over[v.snap.id(i)] == nil {
			count(v.snap.status(i))
		}
	}
	for _, o := range v.over {
		count(o.sum.st)
	}
	return t, nil
}

// Mark is where the journal ended at some moment: RecordsSince reads what
// was written after it.
type Mark struct {
	file os.FileInfo // nil: there was no journal yet
	end  int64
}

// Mark is the journal's end now, after its last whole line: a line
// another process is writing is read, whole, from the mark.
func (j *Journal) Mark() (Mark, error) {
	if j == nil {
		return Mark{}, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := osguard.OpenPrivate(j.path, os.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		return Mark{}, nil
	}
	if err != nil {
		return Mark{}, fmt.Errorf("read journal: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Mark{}, fmt.Errorf("read journal: %w", err)
	}
	end, err := wholeEnd(f, fi.Size())
	if err != nil {
		return Mark{}, fmt.Errorf("read journal: %w", err)
	}
	return Mark{file: fi, end: end}, nil
}

// wholeEnd is where the last whole line of f, size bytes long, ends. A
// mark inside a line being written would read its rest as a line of its
// own, and the line would be lost. A tail longer than any line is none
// being written: it is passed.
func wholeEnd(f io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, 4<<10)
	for end := size; end > 0; {
		if size-end > maxJournalLine {
			return size, nil
		}
		n := min(int64(len(buf)), end)
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return end - n + int64(i) + 1, nil
		}
		end -= n
	}
	return 0, nil
}

// Same reports whether the journal ended alike at m and n: the same file
// at the same length. The journal only grows, so a line written between
// them makes them differ.
func (m Mark) Same(n Mark) bool {
	if m.file == nil || n.file == nil {
		return m.file == nil && n.file == nil
	}
	return m.end == n.end && os.SameFile(m.file, n.file)
}

// ErrReplaced is a journal replaced or cut short since a Mark: what was
// written after it cannot be told.
var ErrReplaced = errors.New("the journal was replaced or cut short meanwhile")

// RecordsSince is the records of o folded from the lines written after m
// alone: the withdrawals made since, newest first. The journal only
// grows; one replaced or shorter than m is ErrReplaced.
func (j *Journal) RecordsSince(o Owner, m Mark) ([]Record, error) {
	if j == nil {
		return nil, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := osguard.OpenPrivate(j.path, os.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) && m.file == nil {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	if m.file != nil && (!os.SameFile(fi, m.file) || fi.Size() < m.end) {
		return nil, ErrReplaced
	}
	if _, err := f.Seek(m.end, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	var lines []line
	if _, err := readLines(f, 64<<10, func(l line) {
		if l.ok {
			lines = append(lines, l)
		}
	}); err != nil {
		return nil, err
	}
	return fold(lines, o), nil
}
