package plain

import (
	"fmt"
	"io"
	"os"
	"regexp"
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
	w, ok := width(out)
	if !ok {
		return question
	}
	return fitTo(question, w)
}

// width is the columns of out when out is a terminal.
func width(out io.Writer) (int, bool) {
	f, ok := out.(*os.File)
	if !ok {
		return 0, false
	}
	w, _, err := term.GetSize(int(f.Fd())) // fails but on a terminal
	return w, err == nil
}

// Fitted is out with each line written to it Fit to its width, as Say
// fits them (a line naming a command to run left whole), when out is a
// terminal: the command line's own lines split words at a narrow one's
// edge. Elsewhere it is out itself, so a script reads what was written.
func Fitted(out io.Writer) io.Writer {
	w, ok := width(out)
	if !ok {
		return out
	}
	return fitWriter{out: out, w: w}
}

// fitWriter fits each line of a write to w cells: a write is whole lines,
// or a question's start, fitted alone.
type fitWriter struct {
	out io.Writer
	w   int
}

func (f fitWriter) Write(p []byte) (int, error) {
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(p), "\n") {
		text := strings.TrimSuffix(line, "\n")
		b.WriteString(fitSaid(text, f.w) + line[len(text):])
	}
	if _, err := io.WriteString(f.out, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// fitSaid is text fit to w cells, but a command to run in it (runnext's,
// "svcwallet …") kept whole, on a line of its own where the line is too
// narrow: broken at a space, the command copied from it would run in two
// pieces; the line kept whole, the terminal split its words mid-word. The
// label a command's own line begins with (speaker) names none.
func fitSaid(text string, w int) string {
	g := glued(text)
	switch {
	case g == text: // no command
		return fitTo(text, w)
	case strings.Contains(text, glue): // not told from a command's glue
		return text
	}
	return strings.ReplaceAll(fitTo(g, w), glue, " ")
}

// glue stands for a space inside a command while its line is fit: one
// cell, as the space, but no break.
const glue = "\u00a0"

// glued is text with the spaces of each command to run in it glued: a
// command runs to the backtick that closes it, or to its line's end.
func glued(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		head := speaker.FindString(line)
		rest := line[len(head):]
		var b strings.Builder
		b.WriteString(head)
		for {
			at := strings.Index(rest, "svcwallet ")
			if at < 0 {
				break
			}
			end := len(rest)
			if at > 0 && rest[at-1] == '`' {
				if n := strings.IndexByte(rest[at:], '`'); n >= 0 {
					end = at + n
				}
			}
			b.WriteString(rest[:at] + strings.ReplaceAll(rest[at:end], " ", glue))
			rest = rest[end:]
		}
		lines[i] = b.String() + rest
	}
	return strings.Join(lines, "\n")
}

// speaker is the label of a command's own line: "svcwallet withdraw: ".
var speaker = regexp.MustCompile(`^svcwallet(?: [a-z]+)*: `)

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
// Text naming a command to run is left whole (fitSaid).
func (p *Prompter) Say(format string, a ...any) {
	sayTo(p.out, fmt.Sprintf(format, a...))
}

// sayTo writes text on out as Say does: the gate's own words (too soon,
// a paste, a discard), written unfitted, split a word at a terminal's edge.
func sayTo(out io.Writer, text string) {
	if w, ok := width(out); ok {
		text = fitSaid(text, w)
	}
	fmt.Fprintln(out, text)
}
