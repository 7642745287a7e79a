package journal

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"slices"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// The journal only grows, and what a command needs of it (the account's
// unfinished withdrawals, one withdrawal's lines) is a few lines among all
// those ever written. The index says where each withdrawal's lines are and
// which withdrawals are unfinished, so those reads cost what they read,
// not the journal's length; the lines themselves are always read from the
// journal and checked as every line is. It is kept in memory (view) and
// saved beside the journal (indexfile.go) for the next command, which
// reads on from where it ends.

// keyID names a withdrawal in the index: the first 16 bytes of the SHA-256
// of its key, so that two withdrawals never share one.
type keyID [16]byte

func idOf(k withdrawalKey) keyID {
	sum := sha256.Sum256([]byte(k.account + "\x00" + k.quoteID))
	return keyID(sum[:16])
}

// status is what the index keeps of a withdrawal's lines: whether one is a
// withdrawal's (not only a prepared Transfer's), and its answer as
// answerOf folds it, enough to tell whether it is finished.
type status uint8

const (
	stRecord   status = 1 << 0
	stAnswered status = 1 << 1
	stAccepted status = 1 << 2 // ever accepted (Record.AcceptedAt): see answerOf
	stRequest  status = 1 << 3 // a request is kept (Record.Request): see keepsIntent
	stateShift        = 4      // the last state, as its index in stateNames
)

var stateNames = [...]string{"", exchange.StateCreated, exchange.StateSubmitted, exchange.StateSending,
	exchange.StateCompleted, exchange.StateFailed, exchange.StateRefunded}

// with is s after line e of its withdrawal.
func (s status) with(e Entry) status {
	if !withdrawalKind(e.Kind) {
		return s
	}
	s |= stRecord
	answered, state, ok := answerOf(s&stAccepted != 0, e)
	if e.accepts() {
		s |= stAccepted
	}
	if e.Kind == KindIntent && e.Request != nil {
		s |= stRequest
	}
	if !ok && !s.reopenedBy(e) {
		return s
	}
	s &^= stAnswered | 0xF<<stateShift
	if answered {
		s |= stAnswered
	}
	code := slices.Index(stateNames[:], state)
	if code < 0 {
		code = len(stateNames) // not a state (check refuses it): never finished
	}
	return s | status(code)<<stateShift
}

// reopenedBy reports whether line e opens s again (reopens).
func (s status) reopenedBy(e Entry) bool {
	state := "?" // not a state: never reopened
	if code := int(s >> stateShift); code < len(stateNames) {
		state = stateNames[code]
	}
	return reopens(s&stAnswered != 0, state, e)
}

// open reports whether s is a withdrawal's that is not finished
// (Record.Finished).
func (s status) open() bool {
	code := int(s >> stateShift)
	if s&stRecord == 0 {
		return false
	}
	if code >= len(stateNames) {
		return true
	}
	return !(s&stAnswered != 0 && code == 0 || exchange.Terminal(stateNames[code]))
}

// view is what a Journal has read of its journal: the index loaded (snap)
// and the lines read past it (over), up to end, the end of the last whole
// line, and the environments they name (envs). j.mu guards it.
// Its readSum is not the record's sum (written.go): that vouches for
// what svcwallet wrote (a miss refuses signing), this for what the index
// read (a miss reads again).
type view struct {
	snap      *snapshot
	over      map[keyID]*overKey
	envs      envTable
	overLines int
	unsaved   int // lines read since the index file was written
	file      os.FileInfo
	end       int64
	tail      [32]byte  // tailSum at end
	readSum   hash.Hash // the SHA-256 of the bytes before end (checkRead)
	skipped   int       // lines skipped before end
	pass      pass      // the read under way, or the last
}

// pass is how far a read of the journal has come: from start to at, of
// size bytes, lines and new withdrawals indexed. The index's room is
// made for what the rest is likely to add (compact).
type pass struct {
	start, at, size int64
	lines, added    int
}

// spare is how many more withdrawals and lines the rest of the pass is
// likely to index, by what it indexed so far.
func (p pass) spare() (entries, lines int) {
	if p.at <= p.start || p.size <= p.at {
		return 0, 0
	}
	ahead := float64(p.size-p.at) / float64(p.at-p.start) * 1.1
	return int(float64(p.added) * ahead), int(float64(p.lines) * ahead)
}

// overKey is a withdrawal's lines read past the snapshot (offs), after
// the base lines the snapshot holds of it, and its summary.
type overKey struct {
	sum  summary
	base int
	offs []int64
}

// compactEvery bounds the lines a view holds outside its snapshot, and so
// its memory while a journal is read whole; saveEvery is how many lines
// read since the index file was written make it worth writing again.
// Variables so that tests save and compact small journals.
var (
	compactEvery = 1 << 16
	saveEvery    = 4096
)

func newView() *view {
	return &view{snap: &snapshot{}, over: map[keyID]*overKey{}, readSum: sha256.New()}
}

// summaryOf is what v holds of withdrawal id, and the count of its lines;
// ok is false when v holds none.
func (v *view) summaryOf(id keyID) (s summary, lines int, ok bool) {
	if o := v.over[id]; o != nil {
		return o.sum, o.base + len(o.offs), true
	}
	if i, ok := v.snap.search(id); ok {
		_, count := v.snap.span(i)
		return v.snap.summary(i), count, true
	}
	return summary{}, 0, false
}

// offsets is where the lines of withdrawal id start, in file order.
func (v *view) offsets(id keyID) []int64 {
	var offs []int64
	if i, ok := v.snap.search(id); ok {
		offs = v.snap.offsets(i)
	}
	if o := v.over[id]; o != nil {
		offs = append(offs, o.offs...)
	}
	return offs
}

// openIDs is the withdrawals the index holds unfinished.
func (v *view) openIDs() []keyID {
	var ids []keyID
	for _, id := range v.snap.openIDs() {
		if v.over[id] == nil {
			ids = append(ids, id)
		}
	}
	for id, o := range v.over {
		if o.sum.st.open() {
			ids = append(ids, id)
		}
	}
	return ids
}

// failedIDs is the withdrawals the index holds ended FAILED that started
// at or after since (failedSince).
func (v *view) failedIDs(since time.Time) []keyID {
	failed := func(s summary) bool { return failedSince(s.st.failed(), s.started(), since) }
	var ids []keyID
	for i := range v.snap.len() {
		if id := v.snap.id(i); v.over[id] == nil && failed(v.snap.summary(i)) {
			ids = append(ids, id)
		}
	}
	for id, o := range v.over {
		if failed(o.sum) {
			ids = append(ids, id)
		}
	}
	return ids
}

// failedSince: a withdrawal that ended FAILED (failed), made at started,
// is in the window starting at since, which its caller computes: the
// index's pick and Record.FailedSince hold this one edge.
func failedSince(failed bool, started, since time.Time) bool { return failed && !started.Before(since) }

// failed reports whether s is a withdrawal's whose last state is FAILED.
func (s status) failed() bool {
	code := int(s >> stateShift)
	return s&stRecord != 0 && code < len(stateNames) && stateNames[code] == exchange.StateFailed
}

// add indexes line e, which starts at off.
func (v *view) add(e Entry, off int64) {
	id := idOf(keyOf(e))
	o := v.over[id]
	if o == nil {
		sum, n, ok := v.summaryOf(id)
		if !ok {
			sum = summary{quoteLen: uint8(len(e.QuoteID))}
		}
		o = &overKey{sum: sum, base: n}
		v.over[id] = o
	}
	if withdrawalKind(e.Kind) && o.sum.st&stRecord == 0 {
		// A record's environment is its first line's (Record.Env).
		o.sum.env = v.envs.index(e.Env)
	}
	o.sum = o.sum.with(e, o.base+len(o.offs))
	o.offs = append(o.offs, off)
	v.pass.at = off
	v.pass.lines++
	v.overLines++
	v.unsaved++
	if v.overLines >= compactEvery {
		v.compact()
	}
}

// compact moves the lines read past the snapshot into it, in place.
func (v *view) compact() {
	if v.overLines > 0 {
		entries, lines := v.pass.spare()
		v.pass.added += v.snap.absorb(v.over, entries, lines)
		v.over, v.overLines = map[keyID]*overKey{}, 0
	}
}

// errStale is an index that disagrees with its journal: a line it names is
// not there, or not that withdrawal's.
var errStale = errors.New("the journal's index does not match the journal")

// refresh brings j.view to the journal's end and returns the journal
// opened for reading (nil when there is none; the caller closes it) and
// whether its last line has no newline yet (torn: a write under way, or
// one cut short): no entry, and never indexed, so that it is read again
// once whole (counted skipped till then, as Scan counts it). The view is
// read on from where it ended when the journal is the same file, as long
// and ending in the same bytes; else from the index file when it matches
// the journal (unless fresh), else from the start. j.mu is held.
func (j *Journal) refresh(fresh bool) (*os.File, bool, error) {
	f, err := osguard.OpenPrivate(j.path, os.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		j.view = nil
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("open journal: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("read journal: %w", err)
	}
	v := j.view
	if fresh || v == nil || !os.SameFile(v.file, fi) || !endsAt(f, fi, v.end, v.tail) {
		v = nil
		if !fresh {
			v = loadIndex(j.indexPath(), f, fi)
		}
		if v == nil {
			v = newView()
		}
	}
	j.view = nil
	torn, err := v.readOn(f, fi, j.progress)
	if err != nil {
		f.Close()
		return nil, false, err
	}
	j.view = v
	if v.unsaved >= saveEvery {
		v.compact()
		// A cache: one not written costs the next command time, not
		// correctness (doctor says when its file is unsafe); it is tried
		// again after as many lines.
		_ = saveIndex(j.indexPath(), v)
		v.unsaved = 0
	}
	return f, torn, nil
}

// readOn reads the journal from v.end to its end into v, telling tell
// (when not nil) how far it has come, when it is at least progressEvery
// bytes from the end.
func (v *view) readOn(f *os.File, fi os.FileInfo, tell func(read, size int64)) (torn bool, err error) {
	if _, err := f.Seek(v.end, io.SeekStart); err != nil {
		return false, fmt.Errorf("read journal: %w", err)
	}
	v.pass = pass{start: v.end, at: v.end, size: fi.Size()}
	// What was written since the last read is most often a line or two.
	size := int(min(max(fi.Size()-v.end, 4096), 64<<10))
	if fi.Size()-v.end < progressEvery {
		tell = nil
	}
	next := v.end
	read, err := readLines(f, size, func(l line) {
		l.off += v.end
		if tell != nil && l.off >= next {
			tell(l.off, fi.Size())
			next = l.off + progressEvery
		}
		switch {
		case !l.whole:
			torn = true
		case l.ok:
			v.add(l.Entry, l.off)
		default:
			v.skipped++
		}
	})
	if err != nil {
		return false, err
	}
	// Summed again from the file, not as read: a torn last line read is
	// not before end.
	if _, err := io.Copy(v.readSum, io.NewSectionReader(f, v.end, read)); err != nil {
		return false, fmt.Errorf("read journal: %w", err)
	}
	v.end += read
	if tell != nil {
		tell(v.end, fi.Size())
	}
	v.file = fi
	if v.tail, err = tailSum(f, v.end); err != nil {
		return false, fmt.Errorf("read journal: %w", err)
	}
	return torn, nil
}

// progressEvery is how many bytes a read that reports its progress reads
// between reports; a shorter read reports none.
const progressEvery = 1 << 20

// tailWindow is how much of the journal before the end of what was read
// must be unchanged for the rest to be taken as read.
const tailWindow = 4096

// tailSum is the SHA-256 of the tailWindow bytes before end.
func tailSum(f io.ReaderAt, end int64) ([32]byte, error) {
	n := min(end, tailWindow)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, end-n); err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(buf), nil
}

// endsAt reports whether the journal f is at least end bytes long and
// ends there in the bytes summed as tail, the last of them a newline.
func endsAt(f *os.File, fi os.FileInfo, end int64, tail [32]byte) bool {
	if fi.Size() < end {
		return false
	}
	sum, err := tailSum(f, end)
	if err != nil || sum != tail {
		return false
	}
	if end == 0 {
		return true
	}
	var last [1]byte
	_, err = f.ReadAt(last[:], end-1)
	return err == nil && last[0] == '\n'
}

// linesOf reads the lines of the withdrawals pick names (from the view
// brought to the journal's end and the journal) through the index, in
// file order, and the count of the journal's lines skipped. An index that disagrees with the journal is dropped and the
// journal read again whole. j.mu is held.
func (j *Journal) linesOf(pick func(v *view, f io.ReaderAt) ([]keyID, error)) ([]line, int, error) {
	for fresh := false; ; fresh = true {
		f, torn, err := j.refresh(fresh)
		if err != nil || f == nil {
			return nil, 0, err
		}
		picked, err := pick(j.view, f)
		if err != nil {
			f.Close()
			j.view = nil
			return nil, 0, err
		}
		ids := map[keyID]bool{}
		for _, id := range picked {
			ids[id] = true
		}
		lines, err := j.view.read(f, ids)
		f.Close()
		if errors.Is(err, errStale) && !fresh {
			continue
		}
		if err != nil {
			j.view = nil
			return nil, 0, err
		}
		skipped := j.view.skipped
		if torn {
			skipped++
		}
		return lines, skipped, nil
	}
}

// read reads the indexed lines of the withdrawals ids, in file order.
func (v *view) read(f io.ReaderAt, ids map[keyID]bool) ([]line, error) {
	var lines []line
	buf := make([]byte, 4096)
	for id := range ids {
		for _, off := range v.offsets(id) {
			l, err := readLineAt(f, off, v.end, &buf)
			if err != nil {
				return nil, err
			}
			if !l.ok || idOf(keyOf(l.Entry)) != id {
				return nil, errStale
			}
			lines = append(lines, l)
		}
	}
	slices.SortFunc(lines, func(a, b line) int { return int(a.off - b.off) })
	return lines, nil
}

// readLineAt reads the whole line that starts at off, before end: the
// byte before it must be a newline.
func readLineAt(f io.ReaderAt, off, end int64, buf *[]byte) (line, error) {
	start := max(off-1, 0)
	for size := 4096; ; size = maxJournalLine + 2 {
		if int64(size) > end-start {
			size = int(end - start)
		}
		if cap(*buf) < size {
			*buf = make([]byte, size)
		}
		b := (*buf)[:size]
		if _, err := f.ReadAt(b, start); err != nil {
			return line{}, fmt.Errorf("read journal: %w", err)
		}
		if off > 0 {
			if len(b) == 0 || b[0] != '\n' {
				return line{}, errStale
			}
			b = b[1:]
		}
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			e, err := parseJournalLine(bytes.TrimRight(b[:i], "\r"))
			return line{Entry: e, off: off, ok: err == nil, whole: true}, nil
		}
		if int64(size) == end-start || size == maxJournalLine+2 {
			return line{}, errStale
		}
	}
}
