package osguard

import (
	"errors"
	"fmt"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"os"
	"path/filepath"
	"syscall"
)

// LockFile holds the lock file at path (0600, made if missing) for this
// process until unlock: waited for while another process holds it,
// released by the system if the process dies (flock on unix, LockFileEx on
// Windows; every system svcwallet builds for has one). A file read, changed
// and written back (the journal's decisions, the watch board, the config,
// the session file) is held this way, so two processes never both write
// what each read before the other's write. A wait is said and bounded as
// w says (waitLock).
func LockFile(path string, w Wait) (unlock func(), err error) {
	f, err := OpenPrivate(path, os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	return hold(f, path, w)
}

// hold waits for the lock of f, opened for it at path, and gives the
// unlock that also closes f; f is closed where the lock is not had.
func hold(f *os.File, path string, w Wait) (unlock func(), err error) {
	if err := waitLock(f, path, w); err != nil {
		f.Close()
		return nil, lockError(path, err)
	}
	if w.Mark != "" {
		writeMark(f, w.Mark)
	}
	return func() {
		if w.Mark != "" {
			clearMark(f)
		}
		_ = unlockFile(f)
		f.Close()
	}, nil
}

// LockBeside is LockFile of path's own lock, PATH.lock beside it, its
// folder made first as a private one (MkdirPrivate): the one way a state
// file that is read and written back (the session file, the bridge
// addresses recorded, the watch board) is held.
func LockBeside(path string, w Wait) (unlock func(), err error) {
	if err := MkdirPrivate(filepath.Dir(path)); err != nil {
		return nil, err
	}
	return LockFile(path+".lock", w)
}

// NoLocksError: the filesystem the lock file is on gives no locks (flock's
// ENOLCK: an NFS mount without lockd), so what it guards is not read and
// written back.
type NoLocksError struct {
	Path string
	Err  error
}

func (e *NoLocksError) Error() string {
	return fmt.Sprintf("lock %s: the filesystem it is on gives no locks (a network mount without a lock service?), and svcwallet does not change its files without one: keep the state folder on a local disk (set $XDG_STATE_HOME to a folder on one)", safetext.Shown(e.Path))
}
func (e *NoLocksError) Unwrap() error { return e.Err }

// lockError words a lock not taken at path.
func lockError(path string, err error) error {
	if held := new(LockHeldError); errors.As(err, &held) {
		return err
	}
	if errors.Is(err, syscall.ENOLCK) {
		return &NoLocksError{Path: path, Err: err}
	}
	return fmt.Errorf("lock %s: %w", safetext.Shown(path), err)
}
