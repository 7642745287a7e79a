package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// appendFile is the journal as write appends to it: an *os.File, or in
// tests one whose writes or syncs fail as a full disk's or a failing
// device's do.
type appendFile interface {
	io.Writer
	io.ReaderAt
	Stat() (os.FileInfo, error)
	Sync() error
	Truncate(size int64) error
	Close() error
}

// openAppend opens the journal at path to append to it (made if missing,
// 0600, no link followed).
var openAppend = func(path string) (appendFile, error) {
	return osguard.OpenPrivate(path, os.O_CREATE|os.O_APPEND|os.O_RDWR)
}

// write appends one entry and fsyncs it; j.mu is held. A line that could
// not be written whole and synced is cut off again (unwrite): the journal
// keeps only whole lines, and never one that was reported unwritten (an
// intent whose request was then not sent). All of it is done holding the
// write lock (lockWrites), so no other process's line lands between the
// journal's end looked at and the line written, or the line and its cut.
func (j *Journal) write(e Entry) error {
	unlock, err := j.lockWrites(precedesSend(e.Kind), markWrite)
	if err != nil {
		return lockError(err)
	}
	defer unlock()
	return j.writeHeld(e)
}

// writeHeld is write with the write lock held.
func (j *Journal) writeHeld(e Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal entry: %w", err)
	}
	if err := checkRoundTrip(line); err != nil {
		return err
	}
	f, err := openAppend(j.path)
	if err != nil {
		return fmt.Errorf("open journal: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("read journal: %w", err)
	}
	// A crash mid-write, or a short write whose cut back failed, leaves a
	// torn last line without its newline: seal it (tornSeal) and start on a
	// line of our own, or this entry would be glued to the fragment and
	// lost with it when the journal is read.
	if torn, err := endsTorn(f, st.Size()); err != nil {
		f.Close()
		return fmt.Errorf("read journal: %w", err)
	} else if torn {
		line = append([]byte(tornSeal), line...)
	}
	line = append(line, '\n')
	n, err := f.Write(line)
	if err == nil {
		if err = f.Sync(); err != nil {
			err = fmt.Errorf("sync journal: %w", err)
		}
	} else {
		err = fmt.Errorf("write journal: %w", err)
	}
	if err == nil && st.Size() == 0 {
		// A new file's name lives in its directory: sync that too, or a
		// power loss can lose the file with the intent in it.
		err = syncDir(filepath.Dir(j.path))
	}
	if err != nil {
		err = unwrite(f, j.path, line[:n], err)
		f.Close()
		return err
	}
	if precedesSend(e.Kind) {
		// The record must hold the line before its send: one it cannot
		// be brought up to is cut back and refused, so nothing is sent.
		if err := j.noteWritten(); err != nil {
			err = unwrite(f, j.path, line, err)
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close journal: %w", err)
	}
	return nil
}

// precedesSend reports whether a line of kind is written before something
// signed is sent (an intent, a prepared Transfer, a builder authorization
// about to be sent): what the record of what was written must hold before
// the send, so that a journal put back to before it is noticed. The
// answers after it are recorded with the next such line or check
// (CheckWritten); one lost meanwhile leaves its withdrawal unanswered,
// which the repeat guard refuses, never pays again.
func precedesSend(kind string) bool {
	return kind == KindIntent || kind == KindPrepared || kind == KindBuilderSent
}

// unwrite takes back wrote, the bytes of a line whose write or sync
// failed (why), from the end of the journal f at path, so that no reader
// finds the line its writer says unwritten, and returns why. It cuts them
// off and syncs: a short write on a full disk leaves no torn fragment.
// Where the cut fails, a fragment without its newline is no entry, and the
// next append seals it (tornSeal); a whole line is sealed where it stands
// (sealLine). Where that fails too, or another writer (an earlier version,
// which takes no lock) wrote after them, the line may stay: why says so.
func unwrite(f appendFile, path string, wrote []byte, why error) error {
	if len(wrote) == 0 {
		return why
	}
	mayStay := func(reason error) error {
		return fmt.Errorf("%w; its line could not be taken back (%v), so it may be in the journal all the same", why, reason)
	}
	st, err := f.Stat()
	if err != nil {
		return mayStay(err)
	}
	end := st.Size() - int64(len(wrote))
	last := make([]byte, len(wrote))
	if end < 0 {
		return mayStay(errors.New("the journal is shorter than what was written"))
	}
	if _, err := f.ReadAt(last, end); err != nil {
		return mayStay(err)
	} else if !bytes.Equal(last, wrote) {
		return mayStay(errors.New("another process wrote after it"))
	}
	cut := f.Truncate(end)
	if cut == nil {
		_ = f.Sync() // the write's error is the one reported
		return why
	}
	if wrote[len(wrote)-1] != '\n' {
		return why // a fragment: no entry, sealed by the next append
	}
	// The line itself starts after the seal of a torn line before it.
	start := end + int64(bytes.LastIndexByte(wrote[:len(wrote)-1], '\n')+1)
	if err := sealLine(f, path, start); err != nil {
		return mayStay(fmt.Errorf("cut back: %v; sealed: %v", cut, err))
	}
	return why
}

// sealFile is the journal opened to seal a line (sealLine): in tests, one
// that cannot be had.
type sealFile interface {
	io.WriterAt
	Stat() (os.FileInfo, error)
	Sync() error
	Close() error
}

// openSeal opens the journal at path to write into it (not appending: an
// append cannot reach a line before its end).
var openSeal = func(path string) (sealFile, error) {
	return osguard.OpenPrivate(path, os.O_WRONLY)
}

// lineSeal replaces the first byte of a line said unwritten: no JSON value
// starts with it, so the line reads as a damaged one, as a torn one sealed
// does.
const lineSeal = '#'

// sealLine makes the whole line at off of the journal f (at path) read as
// a damaged line, in place, and syncs it: the line was written, newline
// and all, and could not be cut back. The write lock is held; the file at
// path must still be f.
func sealLine(f appendFile, path string, off int64) error {
	s, err := openSeal(path)
	if err != nil {
		return err
	}
	defer s.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if si, err := s.Stat(); err != nil || !os.SameFile(fi, si) {
		return errors.New("the journal was replaced meanwhile")
	}
	if _, err := s.WriteAt([]byte{lineSeal}, off); err != nil {
		return err
	}
	return s.Sync()
}

// syncDir fsyncs the directory dir (in tests, one that fails).
var syncDir = func(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync journal directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync journal directory: %w", err)
	}
	return nil
}

// tornSeal ends a torn last line before a line is appended after it: no
// JSON value is followed by it, so the fragment reads as a damaged line
// (skipped, and counted where lines skipped are said), never as an entry,
// even one whole but for its newline, which its writer reported unwritten
// (an intent whose request was then not sent).
const tornSeal = " #torn\n"

// endsTorn reports whether the journal f, size bytes long, does not end
// in a newline.
func endsTorn(f io.ReaderAt, size int64) (bool, error) {
	if size == 0 {
		return false, nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], size-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}
