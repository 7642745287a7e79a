package osguard

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames from to to, failing when to exists
// (RENAME_NOREPLACE); a kernel or filesystem without the flag renames
// once to is seen free (renameLooked).
func renameNoReplace(from, to string) error {
	err := renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return renameLooked(from, to)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

// renameat2 is unix.Renameat2, which a test makes refuse the flag as a
// filesystem without it does.
var renameat2 = unix.Renameat2
