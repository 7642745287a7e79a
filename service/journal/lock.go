package journal

import (
	"fmt"
	"os"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// Exclusive holds the journal for one process until the returned unlock is
// called: a lock file beside it (journal.jsonl.lock, 0600) locked by the
// system (flock on unix, LockFileEx on Windows), which releases it if the
// process dies. It is for a decision that reads the journal and then
// writes it (sending a prepared Transfer once), so two svcwallet processes
// cannot both decide "not sent yet"; it waits for the other process to
// finish. Every system svcwallet builds for has such a lock: none is
// skipped.
func (j *Journal) Exclusive() (unlock func(), err error) {
	unlock, err = LockFile(j.path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("journal %w", err)
	}
	return unlock, nil
}

// LockFile holds the lock file at path (0600, made if missing) for this
// process until unlock, as Exclusive holds the journal: waited for while
// another process holds it, released by the system if the process dies.
// The watch board's file is held this way while it is written.
func LockFile(path string) (unlock func(), err error) {
	f, err := osguard.OpenPrivate(path, os.O_RDWR|os.O_CREATE)
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
