package follow

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestTooManyForARun: a run of MaxFollowed ids is taken whole, one more
// refused whole, counted as given.
func TestTooManyForARun(t *testing.T) {
	if err := TooManyForARun(MaxFollowed); err != nil {
		t.Errorf("%d ids refused: %v", MaxFollowed, err)
	}
	var tm *TooManyError
	if err := TooManyForARun(MaxFollowed + 1); !errors.As(err, &tm) || tm.Refused != MaxFollowed+1 || !tm.Run {
		t.Errorf("%d ids: %v, want them refused whole", MaxFollowed+1, err)
	}
}

// TestRoom: ids past MaxFollowed are refused, counted, with what to do;
// those that fit are taken.
func TestRoom(t *testing.T) {
	for _, c := range []struct{ have, adding, took, refused int }{
		{0, MaxFollowed, MaxFollowed, 0},
		{0, MaxFollowed + 1, MaxFollowed, 1},
		{MaxFollowed - 3, 10, 3, 7},
		{MaxFollowed, 1, 0, 1},
		{MaxFollowed + 5, 2, 0, 2}, // a board read back from an earlier version's file
	} {
		took, err := Room(c.have, c.adding)
		var tm *TooManyError
		refused := 0
		if errors.As(err, &tm) {
			refused = tm.Refused
		}
		if took != c.took || refused != c.refused || (err != nil && !strings.Contains(err.Error(), "at most 20,000 withdrawals")) {
			t.Errorf("Room(%d, %d) = %d, %v; want %d taken, %d refused", c.have, c.adding, took, err, c.took, c.refused)
		}
	}
}

// TestRoomToPutBack: a removal put back fits whole or is refused whole,
// the refusal saying how many of how many have no room.
func TestRoomToPutBack(t *testing.T) {
	for _, c := range []struct {
		have, back int
		said       string
	}{
		{MaxFollowed - 2, 2, ""},
		{MaxFollowed - 1, 2, "nothing put back: 1 of the 2 ids removed last has no room (a board follows 20,000 at most)"},
		{MaxFollowed, 3, "nothing put back: the 3 ids removed last have no room (a board follows 20,000 at most)"},
		{MaxFollowed, 1, "nothing put back: the id removed last has no room (a board follows 20,000 at most)"},
		{MaxFollowed - 10, 2_345, "nothing put back: 2,335 of the 2,345 ids removed last have no room (a board follows 20,000 at most)"},
	} {
		err := RoomToPutBack(c.have, c.back)
		if said := fmt.Sprint(err); (err == nil) != (c.said == "") || (err != nil && said != c.said) {
			t.Errorf("RoomToPutBack(%d, %d) = %v; want %q", c.have, c.back, err, c.said)
		}
	}
}

// TestMaxFollowedFitsTheBoardsFile: MaxFollowed ids, every field of each
// at its longest, with a claim, written twice over (a log before it is
// rewritten) stay under what the board's file reads back, so a full board
// is never refused at the next start.
func TestMaxFollowedFitsTheBoardsFile(t *testing.T) {
	row := longestKeptRow(t)
	if board := 2 * MaxFollowed * int64(len(row)+1); board > maxWatchFile {
		t.Fatalf("a full board's file written twice over is %d bytes, over the %d read back", board, maxWatchFile)
	}
}
