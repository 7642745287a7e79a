package journal

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
)

// checkRead brings the view to the journal's end and holds what it read
// to every byte of the journal before its end, not only the last 4 KiB
// refresh compares: a journal rewritten in place (a backup copied over
// it, an editor writing into the same file), as long and ending as it did,
// is otherwise read on from the index's old mark, and a withdrawal it now
// holds unfinished is missed by the guard of a send. A view that does not
// hold is dropped with the index file, and the journal read again whole.
// It costs a SHA-256 of the journal, so it is for the guard of a send
// (AppendGuarded), not for every read.
func (j *Journal) checkRead() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	f, _, err := j.refresh(false)
	if err != nil || f == nil {
		return err
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, io.NewSectionReader(f, 0, j.view.end)); err != nil {
		j.view = nil
		return fmt.Errorf("read journal: %w", err)
	}
	if bytes.Equal(sum.Sum(nil), j.view.readSum.Sum(nil)) {
		return nil
	}
	j.view = nil
	_ = os.Remove(j.indexPath()) // wrong for the next process too
	again, _, err := j.refresh(true)
	if again != nil {
		again.Close()
	}
	return err
}
