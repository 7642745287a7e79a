package board

import (
	"fmt"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/follow"
)

// boundIDs are n ids of a generated id's shape, from the first.
func boundIDs(first, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("q-bound-%06d", first+i)
	}
	return ids
}

// TestBoardBoundsItsIDs: a paste past follow.MaxFollowed adds as many as
// fit and says, in the service's words, how many were not followed and
// what to do; an id added one by one to a full board is refused alike, and
// so are removed rows put back past it.
// Unbounded, a board of about 70,000 ids wrote a file its next start
// refused whole.
func TestBoardBoundsItsIDs(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.run(br.b.addText(strings.Join(boundIDs(0, follow.MaxFollowed+2), "\n")))
	said := safetext.Capitalized((&follow.TooManyError{Refused: 2}).Error())
	if n := len(br.b.rows); n != follow.MaxFollowed || br.b.err == nil || !strings.Contains(br.b.err.Error(), said) {
		t.Fatalf("a paste of %d ids: %d rows, said %v; want %d and %q", follow.MaxFollowed+2, n, br.b.err, follow.MaxFollowed, said)
	}
	br.run(br.b.addText(boundIDs(follow.MaxFollowed+5, 1)[0]))
	said = safetext.Capitalized((&follow.TooManyError{Refused: 1}).Error())
	if n := len(br.b.rows); n != follow.MaxFollowed || br.b.err == nil || !strings.Contains(br.b.err.Error(), said) {
		t.Fatalf("one id added to a full board: %d rows, said %v", n, br.b.err)
	}
	// Two taken off, one added: putting the two back finds room for one.
	br.run(br.b.drop([]*boardRow{br.b.rows[boundIDs(0, 1)[0]], br.b.rows[boundIDs(1, 1)[0]]}, "Removed 2"))
	br.run(br.b.addText(boundIDs(follow.MaxFollowed+6, 1)[0]))
	br.toasts = nil
	br.run(br.b.putBack())
	said = "Put back 1 withdrawal; " + (&follow.TooManyError{Refused: 1}).Error()
	if n := len(br.b.rows); n != follow.MaxFollowed || len(br.toasts) != 1 || br.toasts[0] != said {
		t.Fatalf("put back beside a full board: %d rows, said %q; want %q", n, br.toasts, said)
	}
}

// TestBoardFileBeyondTheBound: a board's file holding more than
// follow.MaxFollowed ids (another console's, or an earlier version's) opens
// on as many as fit, the first added, and says the rest were not followed.
func TestBoardFileBeyondTheBound(t *testing.T) {
	r := screentest.NewStatusRig(t)
	ids := boundIDs(0, follow.MaxFollowed+3)
	kept := make([]follow.Kept, len(ids))
	for i, id := range ids {
		kept[i] = follow.Kept{QuoteID: id}
	}
	if err := (&follow.WatchFile{Path: kit.WatchlistPath(r.App), Env: r.App.Target.Env.Name}).Append(kept, nil); err != nil {
		t.Fatal(err)
	}
	br, _ := loadOnly(t, r)
	said := safetext.Capitalized((&follow.TooManyError{Refused: 3}).Error())
	if _, last := br.b.rows[ids[follow.MaxFollowed-1]]; len(br.b.rows) != follow.MaxFollowed || !last || br.b.err == nil || !strings.Contains(br.b.err.Error(), said) {
		t.Fatalf("a file of %d ids: %d rows, said %v", len(ids), len(br.b.rows), br.b.err)
	}
}
