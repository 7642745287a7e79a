package journal

import (
	"errors"
	"fmt"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// Exclusive holds the journal for one process until the returned unlock is
// called: a lock file beside it (journal.jsonl.lock, 0600, osguard.LockFile).
// It is for a decision that reads the journal and then writes it (sending
// a prepared Transfer once), so two svcwallet processes cannot both decide
// "not sent yet"; it waits for the other process to finish, saying so past
// a second, and never gives up: the other may be sending, and a person who
// reads the wait can end it (a second ctrl+c).
func (j *Journal) Exclusive() (unlock func(), err error) {
	unlock, err = osguard.LockFile(j.path+".lock", osguard.Wait{Doing: "checking and recording a withdrawal in the journal " + safetext.Shown(j.path), Unbounded: true})
	if err != nil {
		return nil, lockError(err)
	}
	return unlock, nil
}

// lockError words a lock not taken: a wait given up already names the
// journal's lock and says what to do, so only other errors get the prefix.
func lockError(err error) error {
	var held *osguard.LockHeldError
	if errors.As(err, &held) {
		return err
	}
	return fmt.Errorf("journal %w", err)
}
