package cli

import (
	"errors"

	"github.com/svcwallet/svcwallet/service/journal"
)

// rolledBack words a journal that lost lines svcwallet wrote to it
// (journal.RolledBackError) for the command line: exit 1, and the doctor
// that says what was lost and how to accept the journal as it now is;
// nil for any other error.
func (a *app) rolledBack(err error) *cmdError {
	lost, ok := errors.AsType[*journal.RolledBackError](err)
	if !ok {
		return nil
	}
	return failure(exitFailed, "%w (nothing was signed or sent): run %s, which says what was lost; once you have looked, %s accepts it",
		lost, a.invocation().command("doctor"), a.invocation().command("doctor", acceptJournalFlag))
}
