//go:build unix

package osguard

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile takes f's flock, waiting while another process holds it.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// LockFolder holds the folder at dir, opened read-only, as LockFile holds
// a lock file: every process editing a file in it takes this one lock,
// whatever its environment names, and nothing is made in the folder.
func LockFolder(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		err = lockError(dir, err)
		var nl *NoLocksError
		if errors.As(err, &nl) {
			nl.Folder = true
		}
		return nil, err
	}
	return func() {
		_ = unlockFile(f)
		f.Close()
	}, nil
}
