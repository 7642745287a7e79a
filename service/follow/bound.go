package follow

import "fmt"

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
type TooManyError struct{ Refused int }

func (e *TooManyError) Error() string {
	ids := "ids were"
	if e.Refused == 1 {
		ids = "id was"
	}
	return fmt.Sprintf("%d %s not followed: svcwallet follows at most %d,%03d withdrawals at once (a watch board, or one status run); remove ended ones from the board, or follow the rest separately",
		e.Refused, ids, MaxFollowed/1000, MaxFollowed%1000)
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
