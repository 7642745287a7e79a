//go:build unix

package osguard

import (
	"os"
	"syscall"
)

// lockFile takes f's flock, waiting while another process holds it.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
