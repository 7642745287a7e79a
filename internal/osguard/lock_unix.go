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

// lockLater takes f's flock once it is free, in flock itself (a waiter the
// system lists), through a duplicate of f's descriptor: the lock is the
// open file's, so it is f's once taken, and released when f is closed
// however long after a given up wait flock returns.
func lockLater(f *os.File) <-chan error {
	got := make(chan error, 1)
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		got <- err
		return got
	}
	go func() {
		err := syscall.Flock(fd, syscall.LOCK_EX)
		syscall.Close(fd)
		got <- err
	}()
	return got
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
	if err := waitLock(f, dir, w); err != nil {
		f.Close()
		return nil, lockError(dir, err)
	}
	return func() {
		_ = unlockFile(f)
		f.Close()
	}, nil
}
