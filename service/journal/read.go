package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// maxJournalLine bounds one journal line: a withdrawal's entry is about a
// kilobyte, and a longer line cannot be one svcwallet wrote.
const maxJournalLine = 64 << 10

// Entries reads every entry; lines that cannot be entries are skipped (see Scan).
func (j *Journal) Entries() ([]Entry, error) {
	entries, _, err := j.Scan()
	return entries, err
}

// Scan reads every entry and counts the lines it skipped: over-long ones,
// ones that are not an entry's JSON, and a last line without its newline
// (a crash mid-write, or a write under way). A bad line never stops the
// read, so one cannot hide the withdrawals after it.
func (j *Journal) Scan() ([]Entry, int, error) {
	var out []Entry
	skipped, err := j.readAll(func(e Entry) { out = append(out, e) })
	return out, skipped, err
}

// readAll reads the whole journal (Scan), each entry to each, and counts
// the lines skipped.
func (j *Journal) readAll(each func(Entry)) (skipped int, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f, err := osguard.OpenPrivate(j.path, os.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("open journal: %w", err)
	}
	defer f.Close()
	_, err = readLines(f, 64<<10, func(l line) {
		if l.ok {
			each(l.Entry)
		} else {
			skipped++
		}
	})
	return skipped, err
}

// line is one line of the journal as read: its entry when ok (whole, not
// over-long, an entry's JSON, cleaned and checked), where it starts
// (from where the read began), and whether it ended with its newline
// (whole). A last line without it is never an entry, whatever it holds:
// Append writes a line and its newline in one write, so it is a write
// under way, read once whole, or one cut short that its writer said
// unwritten (an intent whose request was then not sent).
type line struct {
	Entry
	off       int64
	ok, whole bool
}

// readLines reads the journal from f to its end, the one loop of every
// reader, through a buffer of size bytes: each line goes to each. read is
// the bytes of the whole lines.
func readLines(f io.Reader, size int, each func(line)) (read int64, err error) {
	r := bufio.NewReaderSize(f, size)
	for {
		raw, long, n, rerr := readJournalLine(r)
		l := line{off: read, whole: rerr == nil}
		if len(raw) > 0 || long {
			if l.whole && !long {
				var perr error
				l.Entry, perr = parseJournalLine(raw)
				l.ok = perr == nil
			}
			each(l)
		}
		if l.whole {
			read += int64(n)
			continue
		}
		if errors.Is(rerr, io.EOF) {
			return read, nil
		}
		return read, fmt.Errorf("read journal: %w", rerr)
	}
}

// readJournalLine reads up to the next newline, n bytes with it. A line
// longer than maxJournalLine is consumed and reported as long, never held
// in memory.
func readJournalLine(r *bufio.Reader) (line []byte, long bool, n int, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		n += len(chunk)
		if !long {
			if len(line)+len(chunk) > maxJournalLine+1 {
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), long, n, err
	}
}
