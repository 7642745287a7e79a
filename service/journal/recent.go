package journal

import (
	"bytes"
	"fmt"
	"io"
	"slices"
)

// The recent withdrawals of an account, or of an environment, read from
// the journal's end back until enough are found, and then each one's lines
// through the index: a read that costs what it returns, not the journal's
// length (the destination form's recent destinations, completion).

// recentChunk is how much of the journal is read back at a time; a
// variable so that tests cut lines at every place.
var recentChunk = 64 << 10

// Recent is the records of o's n withdrawals whose last lines are the
// latest, newest first, as AccountRecords would fold them. They are told
// by those lines: one of an earlier version that names no chain counts
// for its account's withdrawal, whose record then decides (fewer than n
// may come back). A nil journal has none.
func (j *Journal) Recent(o Owner, n int) ([]Record, error) {
	recs, err := j.recent(n, func(e Entry) bool { return withdrawalKind(e.Kind) && o.likely(e) })
	return o.keep(recs), err
}

// RecentIn is the records of the n withdrawals of every account whose
// lines name the environment env and are the latest (what quote-id
// completion offers, logged in to no account), newest first.
func (j *Journal) RecentIn(env string, n int) ([]Record, error) {
	return j.recent(n, func(e Entry) bool { return withdrawalKind(e.Kind) && e.Env == env })
}

// recent is the records of the n withdrawals whose latest lines want
// takes, folded from those lines.
func (j *Journal) recent(n int, want func(Entry) bool) ([]Record, error) {
	if j == nil || n <= 0 {
		return nil, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	lines, _, err := j.linesOf(func(v *view, f io.ReaderAt) ([]keyID, error) {
		return latestIDs(f, v.end, n, want)
	})
	if err != nil {
		return nil, err
	}
	var f folder
	for _, l := range lines {
		if want(l.Entry) {
			f.add(l.Entry)
		}
	}
	return f.records(), nil
}

// UnfinishedIn is the unfinished withdrawals of every account in one
// environment, newest first, through the index (UnfinishedRecords).
func (j *Journal) UnfinishedIn(env string) ([]Record, error) {
	if j == nil {
		return nil, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	lines, _, err := j.linesOf(openLines)
	if err != nil {
		return nil, err
	}
	var f folder
	for _, l := range lines {
		if l.Env == env {
			f.add(l.Entry)
		}
	}
	return Unfinished(f.records()), nil
}

// latestIDs is, newest first, the withdrawals of the lines before end
// that want takes, read from end back, until n are found or the start is
// reached. Lines that are not entries are passed over, as every read
// skips them.
func latestIDs(f io.ReaderAt, end int64, n int, want func(Entry) bool) ([]keyID, error) {
	seen := map[keyID]bool{}
	var ids []keyID
	var head []byte // the start of a line whose end was read before
	for pos := end; pos > 0 && len(ids) < n; {
		size := min(int64(recentChunk), pos)
		pos -= size
		buf := make([]byte, int(size)+len(head))
		if _, err := f.ReadAt(buf[:size], pos); err != nil {
			return nil, fmt.Errorf("read journal: %w", err)
		}
		copy(buf[size:], head)
		if len(buf) > maxJournalLine+recentChunk {
			return nil, fmt.Errorf("read journal: a line is longer than %d bytes", maxJournalLine)
		}
		// The first piece's start is before pos, unless pos is the start.
		first := 0
		if pos > 0 {
			first = bytes.IndexByte(buf, '\n') + 1
			if first == 0 {
				head = buf
				continue
			}
		}
		head = buf[:first]
		rest := bytes.TrimSuffix(buf[first:], []byte("\n"))
		for len(rest) > 0 && len(ids) < n {
			i := bytes.LastIndexByte(rest, '\n')
			raw := rest[i+1:]
			rest = rest[:max(i, 0)]
			if i < 0 {
				rest = nil
			}
			e, err := parseJournalLine(bytes.TrimRight(raw, "\r"))
			if err != nil || !want(e) {
				continue
			}
			if id := idOf(keyOf(e)); !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return slices.Clip(ids), nil
}
