package follow

import (
	"errors"

	"github.com/svcwallet/svcwallet/service/journal"
)

// Journaled is what j gained of o's withdrawals since m, and the mark to
// ask from next, after the journal's last whole line (journal.Mark). It
// costs a stat and a read of that line's end while the journal is as it
// was; once it grew, only the lines after m are read, and the whole records of the
// quote ids they name (a refusal or a state another process wrote, joined
// with the intent written before m) are read through the journal's index.
// A journal replaced meanwhile is read whole.
func Journaled(j *journal.Journal, o journal.Owner, m journal.Mark) ([]journal.Record, journal.Mark, error) {
	now, err := j.Mark()
	if err != nil || now.Same(m) {
		return nil, m, err
	}
	// What could not be read is read again from m next time.
	since, err := j.RecordsSince(o, m)
	switch {
	case errors.Is(err, journal.ErrReplaced):
		recs, _, err := j.AccountRecords(o)
		if err != nil {
			return nil, m, err
		}
		return recs, now, nil
	case err != nil:
		return nil, m, err
	case len(since) == 0:
		return nil, now, nil
	}
	ids := make([]string, len(since))
	for i, r := range since {
		ids[i] = r.QuoteID
	}
	recs, err := j.RecordsOf(o, ids...)
	if err != nil {
		return nil, m, err
	}
	return recs, now, nil
}
