//go:build unix

package osguard

import (
	"fmt"
	"os"
	"syscall"
)

// lockFile takes f's flock, waiting while another process holds it.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// LockFolder holds the folder at dir, opened read-only, as LockFile holds
// a lock file: every process editing a file in it takes this one lock,
// whatever its environment names, and nothing is made in the folder. NFS
// locks no folder (its flock takes an exclusive lock on a file open for
// writing alone): the caller holds a lock file where this fails.
func LockFolder(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, lockError(dir, err)
	}
	return func() {
		_ = unlockFile(f)
		f.Close()
	}, nil
}
