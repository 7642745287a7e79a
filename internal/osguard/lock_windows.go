//go:build windows

package osguard

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockFile locks f's first byte with LockFileEx, waiting while another
// handle holds it. Windows' locks bar reads and writes of the range, which
// is why the lock is a file of its own that nothing reads or writes.
func lockFile(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, new(windows.Overlapped))
}

func unlockFile(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
}

// LockFolder: Windows locks no folder (LockFileEx takes file handles), so
// a caller names a lock file of its own instead.
func LockFolder(string) (unlock func(), err error) { return nil, errors.ErrUnsupported }
