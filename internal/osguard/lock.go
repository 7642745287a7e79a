package osguard

import (
	"fmt"
	"os"
)

// LockFile holds the lock file at path (0600, made if missing) for this
// process until unlock: waited for while another process holds it,
// released by the system if the process dies (flock on unix, LockFileEx on
// Windows; every system svcwallet builds for has one). A file read, changed
// and written back (the journal's decisions, the watch board, the config,
// the session file) is held this way, so two processes never both write
// what each read before the other's write.
func LockFile(path string) (unlock func(), err error) {
	f, err := OpenPrivate(path, os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		_ = unlockFile(f)
		f.Close()
	}, nil
}
