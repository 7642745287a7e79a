//go:build unix

package signer

import (
	"io/fs"
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
