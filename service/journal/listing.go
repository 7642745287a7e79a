package journal

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"
)

// History lists an environment's withdrawals, unfinished first, each group
// newest first (as Record.Started orders them, then as the file does),
// without holding them:
// the order, the count and the columns' widths come from the index's
// summaries, then each withdrawal's lines are read, checked and folded
// as it is listed. Its memory is the index's, whatever the journal's size.

// ListOptions chooses what History lists.
type ListOptions struct {
	Env   string
	Since time.Time // when not zero: only the withdrawals started then or later
	Limit int       // when above 0: only the first Limit of the listing
}

// Listing is what History knows before it reads a line.
type Listing struct {
	Count                  int // withdrawals listed
	QuoteWidth, ChainWidth int // the longest quote id and chain among them
	Skipped                int // the journal's lines that could not be read
	// Others is the other environments the journal holds withdrawals of,
	// the one with the newest first, and how many each.
	Others []EnvCount
}

// EnvCount is how many withdrawals the journal holds of an environment.
type EnvCount struct {
	Env         string
	Withdrawals int
}

// listed is a withdrawal History lists, kept small (a listing holds one
// for each): when it started (rank: its nanoseconds, finished in the top
// bit, so that the unfinished come first), and where its summary is: the
// snapshot's entry ref, or past it, extra[-1-ref].
type listed struct {
	sec  int64
	rank uint32
	ref  int32
}

const finishedBit = 1 << 31

// extra is a withdrawal whose lines were read past the snapshot.
type extra struct {
	id  keyID
	sum summary
}

// History calls head with what it lists, then each with each record in
// order. A withdrawal whose lines do not say what the index did stops it
// (after head, with an error): the index is removed, and the next read
// reads the journal whole. A nil journal lists nothing.
func (j *Journal) History(opt ListOptions, head func(Listing) error, each func(Record) error) error {
	if j == nil {
		return head(Listing{})
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	f, torn, err := j.refresh(false)
	if err != nil {
		return err
	}
	if f == nil {
		return head(Listing{})
	}
	defer f.Close()
	v := j.view
	items, extras, listing := v.listing(opt, torn)
	if err := head(listing); err != nil {
		return err
	}
	r := lineReader{f: f, end: v.end}
	for _, it := range items {
		x := extra{}
		if it.ref >= 0 {
			x.id, x.sum = v.snap.id(int(it.ref)), v.snap.summary(int(it.ref))
		} else {
			x = extras[-1-it.ref]
		}
		rec, err := v.record(&r, x, opt.Env)
		if errors.Is(err, errStale) {
			j.view = nil
			_ = os.Remove(j.indexPath())
			return fmt.Errorf("%w, and was removed: the next read reads the journal whole; run the command again", err)
		}
		if err != nil {
			return err
		}
		if err := each(rec); err != nil {
			return err
		}
	}
	return nil
}

// listing is what v lists of opt.Env, in order, the withdrawals read past
// the snapshot it names, and the Listing of it; torn: the journal's last
// line has no newline yet, a line skipped.
func (v *view) listing(opt ListOptions, torn bool) ([]listed, []extra, Listing) {
	items := make([]listed, 0, v.snap.len()+len(v.over))
	var extras []extra
	l := Listing{Skipped: v.skipped}
	if torn {
		l.Skipped++
	}
	others := map[string]*otherEnv{}
	// take lists it, a record of environment env (envName's).
	take := func(it listed, sum summary, envName func() string) {
		if sum.st&stRecord == 0 {
			return
		}
		switch env := envName(); {
		case env != opt.Env:
			o := others[env]
			if o == nil {
				o = &otherEnv{newest: it}
				others[env] = o
			}
			o.count++
			if v.newer(it, o.newest, extras) < 0 {
				o.newest = it
			}
		case !opt.Since.IsZero() && sum.started().Before(opt.Since):
		default:
			items = append(items, it)
		}
	}
	at := func(sum summary, ref int32) listed {
		it := listed{sec: sum.sec, rank: sum.nsec, ref: ref}
		if !sum.st.open() {
			it.rank |= finishedBit
		}
		return it
	}
	for i := range v.snap.len() {
		if v.over[v.snap.id(i)] == nil {
			sum := v.snap.summary(i)
			take(at(sum, int32(i)), sum, func() string { return v.envs.names[sum.env] })
		}
	}
	for id, o := range v.over {
		extras = append(extras, extra{id: id, sum: o.sum})
		take(at(o.sum, int32(-len(extras))), o.sum, func() string { return v.envs.names[o.sum.env] })
	}
	slices.SortFunc(items, func(a, b listed) int { return v.order(a, b, extras) })
	if opt.Limit > 0 && len(items) > opt.Limit {
		items = items[:opt.Limit]
	}
	l.Count = len(items)
	for _, it := range items {
		sum := v.snapOrExtra(it, extras)
		l.QuoteWidth, l.ChainWidth = max(l.QuoteWidth, int(sum.quoteLen)), max(l.ChainWidth, int(sum.chainLen))
	}
	for env, o := range others {
		l.Others = append(l.Others, EnvCount{env, o.count})
	}
	slices.SortFunc(l.Others, func(a, b EnvCount) int {
		return v.newer(others[a.Env].newest, others[b.Env].newest, extras)
	})
	return items, extras, l
}

// snapOrExtra is the summary of it.
func (v *view) snapOrExtra(it listed, extras []extra) summary {
	if it.ref >= 0 {
		return v.snap.summary(int(it.ref))
	}
	return extras[-1-it.ref].sum
}

// otherEnv is another environment's count of withdrawals and its newest.
type otherEnv struct {
	count  int
	newest listed
}

// order is the listing's order: the unfinished first, then newer.
func (v *view) order(a, b listed, extras []extra) int {
	if c := cmp.Compare(a.rank&finishedBit, b.rank&finishedBit); c != 0 {
		return c
	}
	return v.newer(a, b, extras)
}

// newer orders records as Record.Started does, newest first, then as the
// file has them (where each one's first withdrawal line is).
func (v *view) newer(a, b listed, extras []extra) int {
	switch {
	case a.sec != b.sec:
		return cmp.Compare(b.sec, a.sec)
	case a.rank&^finishedBit != b.rank&^finishedBit:
		return cmp.Compare(b.rank&^finishedBit, a.rank&^finishedBit)
	}
	return cmp.Compare(v.firstAt(a, extras), v.firstAt(b, extras))
}

// firstAt is where the first withdrawal line of it starts.
func (v *view) firstAt(it listed, extras []extra) int64 {
	if it.ref >= 0 {
		return v.snap.offset(int(it.ref), int(v.snap.summary(int(it.ref)).recFirst))
	}
	x := extras[-1-it.ref]
	return v.lineAt(x.id, v.over[x.id], int(x.sum.recFirst))
}

// lineAt is where line k of withdrawal id starts, o its lines past the
// snapshot (or nil).
func (v *view) lineAt(id keyID, o *overKey, k int) int64 {
	if o != nil && k >= o.base {
		return o.offs[k-o.base]
	}
	i, _ := v.snap.search(id)
	return v.snap.offset(i, k)
}

// record reads and folds the lines of x, checking each is its
// withdrawal's and that the record is what the summary said.
func (v *view) record(r *lineReader, x extra, env string) (Record, error) {
	var f folder
	for _, off := range v.offsets(x.id) {
		l, err := r.lineAt(off)
		if err != nil {
			return Record{}, err
		}
		if !l.ok || idOf(keyOf(l.Entry)) != x.id {
			return Record{}, errStale
		}
		f.add(l.Entry)
	}
	recs := f.records()
	if len(recs) != 1 || !x.sum.agrees(recs[0], env) {
		return Record{}, errStale
	}
	return recs[0], nil
}

// lineReader reads lines at their offsets through a window of the
// journal, so that lines near one another cost one read.
type lineReader struct {
	f   io.ReaderAt
	end int64 // the end of the last whole line
	buf []byte
	at  int64 // where buf starts in the file
}

// window is what lineReader reads at a time.
const window = 64 << 10

// lineAt reads the whole line that starts at off: the byte before it
// must be a newline (readLineAt).
func (r *lineReader) lineAt(off int64) (line, error) {
	from := max(off-1, 0)
	if from < r.at || from >= r.at+int64(len(r.buf)) || !r.holds(off) {
		start := from
		if from < r.at {
			// Going back: most often to the withdrawal before, so the
			// window ends a little past this line.
			start = max(from-window+4096, 0)
		}
		if err := r.load(start, window); err != nil {
			return line{}, err
		}
		if !r.holds(off) && r.at+int64(len(r.buf)) < r.end {
			if err := r.load(from, maxJournalLine+2); err != nil {
				return line{}, err
			}
		}
	}
	b := r.buf[from-r.at:]
	if off > 0 {
		if len(b) == 0 || b[0] != '\n' {
			return line{}, errStale
		}
		b = b[1:]
	}
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return line{}, errStale
	}
	e, err := parseJournalLine(bytes.TrimRight(b[:i], "\r"))
	return line{Entry: e, off: off, ok: err == nil, whole: true}, nil
}

// holds reports whether the window holds the line at off whole.
func (r *lineReader) holds(off int64) bool {
	from := max(off-1, 0)
	if from < r.at || from >= r.at+int64(len(r.buf)) {
		return false
	}
	return bytes.IndexByte(r.buf[off-r.at:], '\n') >= 0
}

// load reads size bytes from start, or to the end of the last whole line.
func (r *lineReader) load(start int64, size int) error {
	n := int(min(int64(size), r.end-start))
	if cap(r.buf) < n {
		r.buf = make([]byte, n)
	}
	r.buf, r.at = r.buf[:n], start
	if _, err := r.f.ReadAt(r.buf, start); err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	return nil
}
