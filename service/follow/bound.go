package follow

import (
	"fmt"
	"strconv"
)

// MaxFollowed bounds the ids one watch board, or one run of status,
// follows: twice a busy support desk's day (10,000), and what the board's
// file holds with every field at its longest written twice over before it
// is rewritten (about 48 MB) stays under what is read back (maxWatchFile).
// Unbounded, a board of about 70,000 ids of the usual length was written
// and then refused at the next start. Measured with the sandbox in the
// same heap: about 3 KB an id (30 MB at 10,000, 58 MB at 20,000, 143 MB at
// 50,000), and an answer 0.4 to 0.8 ms at each, not growing with the board.
const MaxFollowed = 20_000

// TooManyError refuses the ids past MaxFollowed, in the one wording every
// face places.
type TooManyError struct {
	Refused int
	// Run: the ids of one run, refused all (TooManyForARun).
	Run bool
	// Back: the removed ids a put back asked for, none put back since
	// Refused of them do not fit (RoomToPutBack).
	Back int
}

func (e *TooManyError) Error() string {
	most := grouped(MaxFollowed)
	if e.Run {
		return fmt.Sprintf("%s ids given, and one run follows at most %s withdrawals: nothing was asked; give them in runs of at most %s", grouped(e.Refused), most, most)
	}
	ids, have := "ids were", "have"
	if e.Refused == 1 {
		ids, have = "id was", "has"
	}
	if e.Back > 0 {
		unfit := fmt.Sprintf("%s of the %s ids removed last", grouped(e.Refused), grouped(e.Back))
		switch {
		case e.Back == 1:
			unfit = "the id removed last"
		case e.Refused == e.Back:
			unfit = fmt.Sprintf("the %s ids removed last", grouped(e.Back))
		}
		return fmt.Sprintf("nothing put back: %s %s no room (a board follows %s at most)", unfit, have, most)
	}
	return fmt.Sprintf("%s %s not followed: svcwallet follows at most %s withdrawals at once (a watch board, or one status run); remove ended ones from the board, or follow the rest separately",
		grouped(e.Refused), ids, most)
}

// grouped writes n with its thousands set apart, as counts of ids are read.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TooManyForARun refuses a run of n ids whole when they are more than
// MaxFollowed: a command asks all it is given or nothing, and taking the
// first would leave the rest unsaid among its output.
func TooManyForARun(n int) error {
	if n <= MaxFollowed {
		return nil
	}
	return &TooManyError{Refused: n, Run: true}
}

// Room is how many of adding new ids fit beside have ids followed, and
// the refusal of the rest (a *TooManyError); nil when all fit.
func Room(have, adding int) (int, error) {
	room := max(MaxFollowed-have, 0)
	if adding <= room {
		return adding, nil
	}
	return room, &TooManyError{Refused: adding - room}
}

// RoomToPutBack refuses a put back of back removed ids beside have
// followed unless all fit: an undo puts back the removal it undoes whole,
// or nothing, so what comes back is what was taken.
func RoomToPutBack(have, back int) error {
	_, err := Room(have, back)
	if tm, ok := err.(*TooManyError); ok {
		tm.Back = back
	}
	return err
}
