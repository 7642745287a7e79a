package journal

// AppendGuarded appends e only if guard, run while this process holds the
// journal (Exclusive), allows it: a check read from the journal that
// guards a send (no identical withdrawal unanswered, a prepared Transfer
// not sent yet) and the intent's line that precedes the send are one step
// for every svcwallet process, so two of them cannot both pass the check
// before either has written. The guard reads the journal as it now is,
// every byte of it (checkRead). guard's error is returned as it is.
func (j *Journal) AppendGuarded(guard func() error, e Entry) error {
	unlock, err := j.Exclusive()
	if err != nil {
		return err
	}
	defer unlock()
	if err := j.checkRead(); err != nil {
		return err
	}
	if err := guard(); err != nil {
		return err
	}
	return j.Append(e)
}
