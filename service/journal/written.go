package journal

import (
	"crypto/sha256"
	"encoding"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// What svcwallet has written to the journal is recorded beside it
// (journal.jsonl.written, a private state file apart from the index): the
// length the journal reached, a running SHA-256 of those bytes, the
// SHA-256 of the last 4 KiB before that length, and the withdrawals then
// unanswered. A journal shorter than that, or ending otherwise there,
// lost lines svcwallet wrote (a restored backup, a synced folder, a
// careless cp): it is rolled back, and nothing is signed on it until the
// user has looked and accepted it as it now is (AcceptAsItIs). The record
// is read back as an answer is, never trusted over the journal.

const (
	writtenVersion = 1
	// maxRemembered bounds the unanswered withdrawals the record keeps
	// (the newest).
	maxRemembered = 1000
)

// WrittenPath is where the record of what svcwallet wrote to the journal
// at path is kept.
func WrittenPath(path string) string { return path + ".written" }

// writtenRecord is the record's file.
type writtenRecord struct {
	Version int   `json:"version"`
	Length  int64 `json:"length"`
	// Hash is the SHA-256 state after Length bytes (its binary form, in
	// base64), which the next bytes written are added to; Sum is its sum.
	Hash       string       `json:"hash"`
	Sum        string       `json:"sum"`
	Tail       string       `json:"tail"` // tailSum at Length, in hex
	Unanswered []Remembered `json:"unanswered,omitempty"`
}

// Remembered is a withdrawal the record remembers unanswered: its intent
// was written, no answer since.
type Remembered struct {
	QuoteID   string `json:"quote_id"`
	Env       string `json:"env"`
	AccountID string `json:"account_id,omitempty"`
}

// RolledBackError is a journal that lost lines svcwallet wrote to it, or
// whose record of them cannot be read: nothing is signed on it until the
// user has looked and accepted it as it now is (Journal.AcceptAsItIs).
type RolledBackError struct {
	Path     string
	Recorded int64 // the bytes svcwallet wrote
	Now      int64 // the bytes the journal holds
	// Changed: at least as long, but not what was written.
	Changed bool
	// Unreadable is why the record itself cannot be read.
	Unreadable error
	// Unanswered is what the record remembers unanswered; Missing those
	// of them the journal holds no line of now (CheckWritten with whole).
	Unanswered, Missing []Remembered
}

func (e *RolledBackError) Error() string {
	var what string
	switch {
	case e.Unreadable != nil:
		what = fmt.Sprintf("the record of what svcwallet wrote to the withdrawal journal %s cannot be read (%v), so lost lines cannot be ruled out", safetext.Shown(e.Path), e.Unreadable)
	case e.Changed:
		what = fmt.Sprintf("the withdrawal journal %s is not what svcwallet wrote: bytes among the first %d, which svcwallet wrote, changed (an older copy put back, or the file edited?)", safetext.Shown(e.Path), e.Recorded)
	default:
		what = fmt.Sprintf("the withdrawal journal %s lost lines svcwallet wrote: it holds %d of the %d bytes written (an older copy put back?)", safetext.Shown(e.Path), e.Now, e.Recorded)
	}
	if len(e.Unanswered) > 0 {
		what += "; withdrawals it then held unanswered, which may have been paid: " + strings.Join(QuoteIDs(e.Unanswered), ", ")
	}
	return what + "; nothing is signed until it is accepted as it now is"
}

// QuoteIDs are rems' quote ids, in order.
func QuoteIDs(rems []Remembered) []string {
	ids := make([]string, len(rems))
	for i, r := range rems {
		ids[i] = r.QuoteID
	}
	return ids
}

// check shape-checks a record read back.
func (r *writtenRecord) check() error {
	if r.Version != writtenVersion || r.Length < 0 {
		return errors.New("not a record of this version")
	}
	if b, err := hex.DecodeString(r.Tail); err != nil || len(b) != sha256.Size {
		return errors.New("its tail is not a SHA-256")
	}
	h, err := r.hash()
	if err != nil || hex.EncodeToString(h.Sum(nil)) != r.Sum {
		return errors.New("its running hash does not hold together")
	}
	if len(r.Unanswered) > maxRemembered {
		return fmt.Errorf("it remembers more than %d withdrawals", maxRemembered)
	}
	for _, u := range r.Unanswered {
		if exchange.CheckID("quote id", u.QuoteID, true) != nil || exchange.CheckName("environment", u.Env) != nil ||
			exchange.CheckID("account id", u.AccountID, false) != nil {
			return errors.New("a withdrawal it remembers is not one")
		}
	}
	return nil
}

// hash is the running SHA-256 the record keeps.
func (r *writtenRecord) hash() (hash.Hash, error) {
	b, err := base64.StdEncoding.DecodeString(r.Hash)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return h, nil
}

// errNotRecord is a record that is not svcwallet's (its shape).
var errNotRecord = errors.New("not svcwallet's record of the journal")

// readWritten is the record of the journal at path; nil when there is
// none. One that is not svcwallet's is errNotRecord, config.ErrNotState;
// one that cannot be read, that error.
func readWritten(path string) (*writtenRecord, error) {
	var r writtenRecord
	err := config.ReadState(WrittenPath(path), &r)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", errNotRecord, err)
	}
	return &r, nil
}

// holds reports whether the journal f (fi) still holds what r records: at
// least as long, ending at r.Length in the bytes r's tail sums.
func (r *writtenRecord) holds(f io.ReaderAt, fi os.FileInfo) bool {
	if fi.Size() < r.Length {
		return false
	}
	sum, err := tailSum(f, r.Length)
	return err == nil && hex.EncodeToString(sum[:]) == r.Tail
}

// extend is r (nil: nothing recorded yet) with the whole lines the
// journal f holds past it, up to size: their bytes added to the running
// hash, their withdrawals' answers to what is remembered unanswered.
func extend(r *writtenRecord, f io.ReaderAt, size int64) (*writtenRecord, error) {
	next := &writtenRecord{Version: writtenVersion}
	h := sha256.New()
	if r != nil {
		var err error
		if h, err = r.hash(); err != nil {
			return nil, err
		}
		next.Length, next.Unanswered = r.Length, slices.Clone(r.Unanswered)
	}
	read, err := readLines(io.NewSectionReader(f, next.Length, size-next.Length), 64<<10, func(l line) {
		if l.whole && l.ok {
			next.Unanswered = remember(next.Unanswered, l.Entry)
		}
	})
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(h, io.NewSectionReader(f, next.Length, read)); err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	next.Length += read
	state, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return nil, err
	}
	tail, err := tailSum(f, next.Length)
	if err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	next.Hash, next.Sum, next.Tail = base64.StdEncoding.EncodeToString(state), hex.EncodeToString(h.Sum(nil)), hex.EncodeToString(tail[:])
	return next, nil
}

// remember is rems after line e: an intent adds its withdrawal, an answer
// removes it.
func remember(rems []Remembered, e Entry) []Remembered {
	if !withdrawalKind(e.Kind) {
		return rems
	}
	k := keyOf(e)
	rems = slices.DeleteFunc(rems, func(r Remembered) bool { return keyFor(r.AccountID, r.QuoteID) == k })
	if e.Kind == KindIntent && e.Request != nil {
		rems = append(rems, Remembered{QuoteID: e.QuoteID, Env: e.Env, AccountID: e.AccountID})
		if len(rems) > maxRemembered {
			rems = rems[len(rems)-maxRemembered:]
		}
	}
	return rems
}

// noteWritten brings the record up to what the journal now holds, after a
// line that precedes a send was written (j.mu and the write lock are
// held). When it cannot be written (its file cannot be had, or the journal
// no longer holds what was recorded) the error names it, and the line is
// refused: sent with the record behind it, a journal put back to before
// that line read as whole, its withdrawal lost unseen.
func (j *Journal) noteWritten() error {
	if err := j.record(false); err != nil {
		// err names the file at fault, in full: the record by its name alone.
		return fmt.Errorf("its record %s could not be brought up to date: %w", safetext.Shown(filepath.Base(WrittenPath(j.path))), err)
	}
	return nil
}

// lockWrites holds the journal's write lock until unlock: the record's
// lock file (journal.jsonl.written.lock), which every append takes around
// its check of the journal's end, its write, the record brought up to it
// and its cut back, and every read and write of the record, across
// processes. So no line lands between a line and its cut, and the record is
// never open for reading while another replaces it (Windows refuses that
// rename). beforeSend waits without end, as the journal's own lock
// (Exclusive): a wait given up refuses a send the person answered, for a
// lock another svcwallet holds a moment. doing (markWrite, markCheck,
// markAccept) is left in the lock file, so that a waiter says what the
// holder does (writeMarks).
func (j *Journal) lockWrites(beforeSend bool, doing string) (unlock func(), err error) {
	w := osguard.Wait{Doing: "using the journal " + safetext.Shown(j.path) + " or its record", Unbounded: beforeSend,
		Mark: doing, Marks: writeMarks(j.path)}
	return osguard.LockFile(WrittenPath(j.path)+".lock", w)
}

// What a holder of the write lock does, as it marks its lock file.
const (
	markWrite  = "write"
	markCheck  = "check"
	markAccept = "accept"
)

// writeMarks is what a waiter says of a holder of the write lock of the
// journal at path, by its mark.
func writeMarks(path string) map[string]string {
	p := safetext.Shown(path)
	return map[string]string{
		markWrite:  "writing a line to the journal " + p,
		markCheck:  "checking the journal " + p + " against its record of what was written",
		markAccept: "recording the journal " + p + " as it now is",
	}
}

// record brings the record up to the journal's end (the write lock is
// held): anew from the journal's start when fresh, else only when the
// journal still holds what it records.
func (j *Journal) record(fresh bool) error {
	var r *writtenRecord
	var err error
	if !fresh {
		if r, err = readWritten(j.path); err != nil {
			return err
		}
	}
	var src io.ReaderAt = strings.NewReader("") // no journal: an empty one
	size := int64(0)
	f, err := osguard.OpenPrivate(j.path, os.O_RDONLY)
	switch {
	case err == nil:
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		if r != nil && !r.holds(f, fi) {
			return &RolledBackError{Path: j.path, Recorded: r.Length, Now: fi.Size(), Changed: fi.Size() >= r.Length, Unanswered: r.Unanswered}
		}
		src, size = f, fi.Size()
	case !errors.Is(err, os.ErrNotExist) || r != nil && r.Length > 0:
		return err
	}
	next, err := extend(r, src, size)
	if err != nil {
		return err
	}
	return config.WriteState(WrittenPath(j.path), next)
}

// CheckWritten reports whether the journal still holds what svcwallet
// wrote to it: nil, or a *RolledBackError (another error when it cannot
// tell). It compares the journal's length and its last 4 KiB at the
// recorded length, which costs what a few kilobytes do; whole also sums
// the recorded bytes (doctor) and names the remembered withdrawals the
// journal holds no line of now. A journal with no record yet is recorded
// as it is (the first run of a version that records). It is a look: a
// wait for the write lock is given up (CheckWrittenBeforeSend is not).
func (j *Journal) CheckWritten(whole bool) error { return j.checkWritten(whole, false) }

// CheckWrittenBeforeSend is CheckWritten for the check that guards a
// signature or a send the person answered: the write lock is waited for
// without end, as the intent's line after it waits (lockWrites). Given
// up, the send was refused for a lock another svcwallet holds a moment.
func (j *Journal) CheckWrittenBeforeSend(whole bool) error { return j.checkWritten(whole, true) }

// checkWritten is CheckWritten; beforeSend waits for the write lock
// without end. The whole sum is made without the write lock, which
// appends need: a long journal's sum held them, and an answer's line gave
// up waiting, said unrecorded. The end is looked at under the lock before
// it and again after it (checkEnd), which records what was written
// meanwhile; the sum is of the bytes the record held before it.
func (j *Journal) checkWritten(whole, beforeSend bool) error {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if neither(WrittenPath(j.path), j.path) {
		return nil // nothing written: a look makes no lock file
	}
	r, err := j.checkEnd(beforeSend, whole)
	if err != nil || r == nil || !whole {
		return err
	}
	if err := j.sumWritten(r); err != nil {
		return err
	}
	_, err = j.checkEnd(beforeSend, whole)
	return err
}

// checkEnd holds the write lock while it reads the record and checks the
// journal's end against it, and records what was written since; it
// returns the record read (nil: none, or nothing written).
func (j *Journal) checkEnd(beforeSend, whole bool) (*writtenRecord, error) {
	unlock, err := j.lockWrites(beforeSend, markCheck)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r, err := readWritten(j.path)
	switch {
	case errors.Is(err, errNotRecord), errors.Is(err, config.ErrNotState):
		return nil, &RolledBackError{Path: j.path, Unreadable: err}
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", safetext.Shown(WrittenPath(j.path)), err)
	case r == nil:
		if _, err := os.Lstat(j.path); err == nil {
			_ = j.record(false) // best effort: a later write records it
		}
		return nil, nil
	}
	f, err := osguard.OpenPrivate(j.path, os.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		if r.Length == 0 {
			return nil, nil
		}
		return nil, &RolledBackError{Path: j.path, Recorded: r.Length, Unanswered: r.Unanswered, Missing: r.Unanswered}
	}
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	if !r.holds(f, fi) {
		return nil, j.withMissing(lostFrom(j.path, r, fi), whole)
	}
	if fi.Size() > r.Length {
		_ = j.record(false) // what was written since, best effort as every write's
	}
	return r, nil
}

// lostFrom is the journal at path, fi now, that no longer holds what r
// records.
func lostFrom(path string, r *writtenRecord, fi os.FileInfo) *RolledBackError {
	return &RolledBackError{Path: path, Recorded: r.Length, Now: fi.Size(), Changed: fi.Size() >= r.Length, Unanswered: r.Unanswered}
}

// sumWritten holds every byte r records to its sum, holding no lock: a
// journal only grows, and lines appended meanwhile are past r.Length.
func (j *Journal) sumWritten(r *writtenRecord) error {
	f, err := osguard.OpenPrivate(j.path, os.O_RDONLY)
	if err != nil {
		return fmt.Errorf("open journal: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	h := sha256.New()
	if fi.Size() >= r.Length {
		if err := sumTo(h, io.NewSectionReader(f, 0, r.Length)); err != nil {
			return fmt.Errorf("read journal: %w", err)
		}
	}
	if fi.Size() < r.Length || hex.EncodeToString(h.Sum(nil)) != r.Sum {
		return j.withMissing(lostFrom(j.path, r, fi), true)
	}
	return nil
}

// sumTo adds what r holds to h: the whole sum of a check, which takes a
// while on a long journal (tests make it slow).
var sumTo = func(h hash.Hash, r io.Reader) error {
	_, err := io.Copy(h, r)
	return err
}

// neither reports whether no file is at either path.
func neither(a, b string) bool {
	_, errA := os.Lstat(a)
	_, errB := os.Lstat(b)
	return errors.Is(errA, os.ErrNotExist) && errors.Is(errB, os.ErrNotExist)
}

// withMissing is lost with, when whole, the remembered withdrawals the
// journal holds no line of now. j.mu is held.
func (j *Journal) withMissing(lost *RolledBackError, whole bool) error {
	if !whole || len(lost.Unanswered) == 0 {
		return lost
	}
	ids := make([]keyID, len(lost.Unanswered))
	for i, u := range lost.Unanswered {
		ids[i] = idOf(keyFor(u.AccountID, u.QuoteID))
	}
	lines, _, err := j.linesOf(func(*view, io.ReaderAt) ([]keyID, error) { return ids, nil })
	if err != nil {
		return err
	}
	held := map[withdrawalKey]bool{}
	for _, l := range lines {
		held[keyOf(l.Entry)] = true
	}
	for _, u := range lost.Unanswered {
		if !held[keyFor(u.AccountID, u.QuoteID)] {
			lost.Missing = append(lost.Missing, u)
		}
	}
	return lost
}

// AcceptAsItIs records the journal as it now is, whatever was recorded
// before: what the user does once they have looked at a rolled-back
// journal (and checked the withdrawals it lost). It returns how many
// withdrawals it holds unanswered.
func (j *Journal) AcceptAsItIs() (unanswered int, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	unlock, err := j.lockWrites(false, markAccept)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if err := j.record(true); err != nil {
		return 0, err
	}
	r, err := readWritten(j.path)
	if err != nil || r == nil {
		return 0, err
	}
	return len(r.Unanswered), nil
}
