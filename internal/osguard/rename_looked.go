//go:build !windows

package osguard

import (
	"errors"
	"io/fs"
	"os"
)

// renameLooked renames from to to where the system offers no rename that
// refuses an existing to (some FUSE mounts, the BSDs): to is looked at
// once more, right before, so only what is made at to in that instant is
// replaced, where os.Rename alone replaced the journal in use.
func renameLooked(from, to string) error {
	if _, err := os.Lstat(to); !errors.Is(err, os.ErrNotExist) {
		if err == nil {
			err = fs.ErrExist
		}
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return os.Rename(from, to)
}
