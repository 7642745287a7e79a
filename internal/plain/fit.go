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

// answerRoom is the cells a question's last line leaves after it for its
// answer (an amount, a choice's name): with fewer, "25" typed showed as "2"
// at the terminal's edge and "5" on the next line.
const answerRoom = 12

// fitTo wraps question at spaces to w cells (the console's tui.WrapAtSpaces),
// a word wider standing alone; its trailing spaces, after which the answer
// is typed, stay on its last line, which leaves answerRoom cells after them
// where breaking before its last word can. Text with no such space (a line
// said, a choice's title) takes no answer, and keeps a cell.
func fitTo(question string, w int) string {
	body := strings.TrimRight(question, " ")
	tail := question[len(body):]
	free := func(line string) int { return w - ansi.StringWidth(line+tail) }
	need := 1
	if tail != "" {
		need = answerRoom
	}
	if w < 2 || free(body) >= need {
		return question
	}
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		lines = append(lines, tui.WrapAtSpaces(line, w-1)...)
	}
	// Wrapped a cell under its width, the last line is broken before its
	// last word: the most room a line of whole words leaves.
	if last := len(lines) - 1; free(lines[last]) < need {
		lines = append(lines[:last], tui.WrapAtSpaces(lines[last], ansi.StringWidth(lines[last])-1)...)
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
