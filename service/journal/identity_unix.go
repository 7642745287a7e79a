//go:build unix

package journal

import (
	"os"
	"syscall"
)

// fileIdentity is the device and inode of a file: what the index file
// names its journal by.
func fileIdentity(fi os.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true
}
