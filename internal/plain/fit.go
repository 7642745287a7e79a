package plain

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/svcwallet/svcwallet/tui"
)

// Fit is question wrapped at spaces to the width of out when out is a
// terminal: a terminal narrower than a question's one line split it where
// its edge fell, an address mid-word. Elsewhere (a pipe, a file) it is as
// given, one line, for its reader to wrap.
func Fit(out io.Writer, question string) string {
	f, ok := out.(*os.File)
	if !ok {
		return question
	}
	w, _, err := term.GetSize(int(f.Fd())) // fails but on a terminal
	if err != nil {
		return question
	}
	return fitTo(question, w)
}

// fitTo wraps question at spaces to w cells (the console's tui.WrapAtSpaces),
// a word wider standing alone; its trailing spaces, after which the answer
// is typed, stay on its last line, which keeps a cell for the answer's
// first key.
func fitTo(question string, w int) string {
	if w < 2 || ansi.StringWidth(question) < w {
		return question
	}
	body := strings.TrimRight(question, " ")
	tail := question[len(body):]
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		lines = append(lines, tui.WrapAtSpaces(line, w-1)...)
	}
	// The last line holds the tail too: a line that filled the terminal's
	// last column sent the answer's first key to the next line.
	last := len(lines) - 1
	if room := w - 1 - len(tail); room > 0 && ansi.StringWidth(lines[last]) > room {
		lines = append(lines[:last], tui.WrapAtSpaces(lines[last], room)...)
	}
	return strings.Join(lines, "\n") + tail
}

// Say writes one line (or several, each ended), wrapped at spaces on a
// terminal as a question is (Fit): the terminal split an address it named.
// Text naming a command to run (runnext's, "svcwallet …") is left whole:
// broken at a space, the command copied from it would run in two pieces.
func (p *Prompter) Say(format string, a ...any) {
	text := fmt.Sprintf(format, a...)
	if !strings.Contains(text, "svcwallet ") {
		text = Fit(p.out, text)
	}
	fmt.Fprintln(p.out, text)
}
