//go:build unix

package osguard

import (
	"io/fs"
	"os"
	"syscall"
)

// oNoFollow makes an open fail on a symbolic link at the path's end.
const oNoFollow = syscall.O_NOFOLLOW

// fileOwner is the uid that owns the file.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// openNonBlocking opens path as os.OpenFile does, but never waits: a named
// pipe without a writer, or a device, would block an ordinary open (and a
// read) for ever. The file is opened non-blocking, then set back to
// blocking, so a regular file reads as usual; what it is, the caller sees
// with Stat before reading.
func openNonBlocking(path string, flag int, perm os.FileMode) (*os.File, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, flag|syscall.O_NONBLOCK|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}
