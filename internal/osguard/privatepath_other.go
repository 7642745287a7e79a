//go:build !unix

package osguard

import (
	"io/fs"
	"os"
)

// oNoFollow is 0 where the system has no such flag: OpenPrivate's check
// before the open (os.Lstat) is then what refuses a link.
const oNoFollow = 0

// fileOwner is unknown where files have no uid.
func fileOwner(fs.FileInfo) (int, bool) { return 0, false }

// openNonBlocking is os.OpenFile where named pipes do not block an open.
func openNonBlocking(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}
