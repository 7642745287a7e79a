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
	lock := j.path + ".lock"
	f, err := osguard.OpenPrivate(lock, os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("journal lock %s: %w", lock, err)
	}
	return func() {
		_ = unlockFile(f)
		f.Close()
	}, nil
}
