//go:build windows

package osguard

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// tryLock locks f's first byte with LockFileEx if no other handle holds
// it. Windows' locks bar reads and writes of the range, which is why the
// lock is a file of its own, read and written only past that byte (its
// holder's mark, lockmark.go).
func tryLock(f *os.File) (bool, error) {
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}

// lockHolder: Windows names no holder of a lock cheaply.
func lockHolder(*os.File) string { return "" }

func unlockFile(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
}

// LockFolder: Windows locks no folder (LockFileEx takes file handles), so
// a caller names a lock file of its own instead.
func LockFolder(string, Wait) (unlock func(), err error) { return nil, errors.ErrUnsupported }
