package plain

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/svcwallet/svcwallet/service/intent"
)

// The one rule of a question that signs, moves money or authorizes, asked
// by plain mode and by the command line alike: it is asked only on a
// terminal (the answers read from one and the question written on one);
// what was typed or pasted before it is discarded; and an answer that
// comes before the question has been on the terminal for
// intent.ReviewDwell (the console's review gate holds its keys as long) is
// refused, said, and the question asked again. A paste or keys typed ahead
// never answer it.

// Gate asks the questions that sign, on one terminal.
type Gate struct {
	// Flush discards what the terminal holds typed or pasted and not yet
	// read. nil: the answers come from no terminal, where nothing that
	// signs is asked.
	Flush func() error
	// Now is the clock the dwell is measured on.
	Now func() time.Time
}

// TerminalGate is the gate of answers read from in to questions written
// on out: on a terminal when both are one, the zero Gate otherwise.
func TerminalGate(in io.Reader, out io.Writer) Gate {
	f, ok := in.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || !isTerminal(out) {
		return Gate{}
	}
	return Gate{Flush: func() error { return discardInput(f) }, Now: time.Now}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// OnTerminal reports whether a question that signs may be asked.
func (g Gate) OnTerminal() bool { return g.Flush != nil }

// tooSoon is said of an answer that came within the dwell of its question.
var tooSoon = fmt.Sprintf("Too soon: an answer within %s of the question is not taken, so a paste or keys typed ahead cannot answer it. Read the review, then answer.",
	intent.ReviewDwell)

// Ask writes prompt() on out and reads its answer with read, under the
// rule: what was typed ahead is discarded first; an answer that comes
// within the dwell of the question is refused, said on out, and the
// question asked again. The zero Gate only asks and reads.
func (g Gate) Ask(out io.Writer, prompt func() string, read func() (string, error)) (string, error) {
	for {
		var asked time.Time
		if g.OnTerminal() {
			// A discard that fails leaves the dwell: each line typed
			// ahead then comes at once, and is refused.
			_ = g.Flush()
			// Taken before the question is written, so whoever answers
			// once it shows is never counted early.
			asked = g.Now()
		}
		fmt.Fprint(out, prompt())
		answer, err := read()
		if err != nil || !g.OnTerminal() || !g.Now().Before(asked.Add(intent.ReviewDwell)) {
			return answer, err
		}
		fmt.Fprintln(out, tooSoon)
	}
}
