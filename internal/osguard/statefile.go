package osguard

import (
	"fmt"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"io"
	"os"
	"path/filepath"
)

// WriteStateFile replaces a small state file atomically: a 0600 temporary
// file beside it, synced, then renamed, so a crash never leaves it half
// written. A link or a file others could change at path is refused first;
// the rename itself would replace a link, not follow it.
func WriteStateFile(path string, b []byte) error {
	return WriteStateFileFrom(path, bytesOf(b))
}

// bytesOf is a writer of b, for fill.
func bytesOf(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}

// WriteStateFileFrom replaces a state file as WriteStateFile does, with
// what write writes: a large one (the journal's index) is written as it
// is made, never held whole.
func WriteStateFileFrom(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	if err := CheckPrivateFile(path); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := MakePrivate(tmp); err != nil {
		f.Close()
		return err
	}
	if err := fill(f, write); err != nil {
		return err
	}
	return replaceFile(tmp, path)
}

// CreateStateFile writes b to a new 0600 file at path, synced, or removes
// what it could not fill; an existing file (or link) at path is never
// replaced: the error is then os.ErrExist.
func CreateStateFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := OpenPrivate(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	if err != nil {
		return err
	}
	return fill(f, bytesOf(b))
}

// CreateFile writes b to a new file at path that only its owner can read
// (a file the user names, such as --out, or a child's input): never over
// an existing file or through a link, and synced. On a Windows volume that
// keeps no access lists (a FAT stick carried to an offline machine) it is
// as private as the volume allows.
func CreateFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := MakePrivate(path); err != nil && keepsAccessLists(path) {
		f.Close()
		os.Remove(path)
		return err
	}
	return fill(f, bytesOf(b))
}

// fill writes the new file f with write, syncs and closes it; a file it
// could not fill is removed, so that a half-written one is never taken for
// done.
func fill(f *os.File, write func(io.Writer) error) error {
	err := write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// ReadStateFileAtMost reads a state file as os.ReadFile does, through
// OpenPrivate, refusing one of more than max bytes before it is read whole
// (ReadAtMost).
func ReadStateFileAtMost(path string, max int64) ([]byte, error) {
	f, err := OpenPrivate(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAtMost(f, path, max)
}

// TooLargeError is a file refused for holding more than Max bytes.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s holds more than %d KiB", safetext.Shown(e.Path), e.Max>>10)
}

// ReadAtMost reads r whole unless it holds more than max bytes: a file of
// gigabytes (a sparse one costs no disk) is refused once max+1 are read,
// never held whole in memory.
func ReadAtMost(r io.Reader, path string, max int64) ([]byte, error) {
	// A file that says it is larger is refused before a byte is read: the
	// bound read first costs as much memory (twice, as the buffer grows).
	if f, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > max {
			return nil, &TooLargeError{Path: path, Max: max}
		}
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err == nil && int64(len(b)) > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	return b, err
}
