//go:build unix

package osguard

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// tryLock takes f's flock if no other process holds it.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// LockFolder holds the folder at dir, opened read-only, as LockFile holds
// a lock file: every process editing a file in it takes this one lock,
// whatever its environment names, and nothing is made in the folder. NFS
// locks no folder (its flock takes an exclusive lock on a file open for
// writing alone): the caller holds a lock file where this fails.
func LockFolder(dir string, w Wait) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	return hold(f, dir, w)
}
