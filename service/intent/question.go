package intent

// Question is one answer a journey needs from the user, as data every face
// asks it from (the way charmbracelet/huh defines a field once and runs it
// full-screen or as accessible prompts): plain mode asks it one a line, the
// command line on a terminal for a flag it was not given, in the same
// words and with the journey's own check. The journey defines it
// (builder.Field.Question, withdrawal's questions).
type Question struct {
	// Ask is what is asked; How, how to answer ("0x and 40 hex digits").
	Ask, How string
	// Empty says what an empty answer takes ("7 days"); "" asks again.
	Empty string
	// Check is the journey's own check of an answer; nil takes any.
	Check func(string) error
}

// Fact is one line of what a review or a result shows: a label, its
// value, a note on what it means ("" for none), and what makes it stand
// out. The journey says its facts once; each face lays them out.
type Fact struct {
	Label, Value, Note string
	// Kept is the note in the fewest words, for a face short of room to
	// keep: what the value means that signing it confirms (a conversion,
	// what a loss is made of); "" when the note may be left out.
	Kept string
	// Short is the value in the fewest words, for a face short of room
	// (a slow route's why); "" when the value is short already.
	Short string
	Mark  Mark
}

// Mark says why a fact stands out, or that it may be left out, for a
// face short of room.
type Mark uint8

// The marks of a fact.
const (
	Unmarked Mark = iota
	// Payee is where the money goes: what a wrong character would lose.
	Payee
	// Heed is what the user should weigh before signing: a high loss, a
	// slow route.
	Heed
	// Detail is what a short review may leave out: a fact others include
	// (the route, in the amounts), a limit the quote already met (the fee
	// cap) or a reference (the quote's id).
	Detail
)
