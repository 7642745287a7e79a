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

// Cut is line cut to a cell less than the width of out when out is a
// terminal, else as given: a line rewritten in place ("\r", a progress
// line) that wrapped was rewritten on its last row, its first rows left.
func Cut(out io.Writer, line string) string {
	if w, ok := width(out); ok && w > 1 {
		return ansi.Truncate(line, w-1, "…")
	}
	return line
}

// Fitted is out with each line written to it Fit to its width, as Say
// fits them (a line naming a command to run left whole), when out is a
// terminal: the command line's own lines split words at a narrow one's
// edge. Elsewhere it is out itself, so a script reads what was written.
func Fitted(out io.Writer) io.Writer { return FittedFor(out, out) }

// FittedFor is w Fitted to the width of term: a text gathered in w (a
// buffer, written at once so a failed write is told) is fit for the
// terminal it goes to. Off a terminal it is w itself.
func FittedFor(w, term io.Writer) io.Writer {
	first, ok := width(term)
	if !ok {
		return w
	}
	// Asked at each write: a terminal resized while a command runs
	// (status --watch) has its lines fit to its new width.
	return fitWriter{out: w, cols: func() int {
		if cols, ok := width(term); ok {
			return cols
		}
		return first
	}}
}

// Row writes a row of a label and its value on w: head, the label's
// column, then value. Through Fitted, a value too wide for the line
// continues under its column (hang): at the row's indent it read as a row
// of its own. Elsewhere it is the line as given.
func Row(w io.Writer, head, value string) error { return PathRow(w, head, value, "") }

// PathRow is Row of a value that names path, the path kept whole through
// Fitted: broken at a space in it ("/home/ann/my keys/…"), it read as two
// words, and the halves copied named no file. Elsewhere it is the line as
// given.
func PathRow(w io.Writer, head, value, path string) error {
	line := head + value
	if f, ok := w.(fitWriter); ok {
		// Shown paths escape a no-break space (safetext.Shown): the glue
		// undone is the path's own spaces.
		value = strings.Replace(value, path, strings.ReplaceAll(path, " ", glue), 1)
		line = strings.ReplaceAll(hang(head, strings.TrimRight(value, " "), f.cols()), glue, " ")
		w = f.out
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

// hang is head and value fit to w cells, value's lines under its column;
// with a word too wide for that column (an address at 60 columns) the
// row is fit as any line, the word whole at the row's indent.
func hang(head, value string, w int) string {
	at := ansi.StringWidth(head)
	lines := strings.Split(fitSaid(value, w-at), "\n")
	for _, l := range lines {
		if ansi.StringWidth(l) > w-at-1 {
			return fitSaid(strings.TrimRight(head+value, " "), w)
		}
	}
	return strings.TrimRight(head+strings.Join(lines, "\n"+strings.Repeat(" ", at)), " ")
}

// fitWriter fits each line of a write to the cols cells its terminal has
// as it is written: a write is whole lines, or a question's start, fitted
// alone.
type fitWriter struct {
	out  io.Writer
	cols func() int
}

func (f fitWriter) Write(p []byte) (int, error) {
	w := f.cols()
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(p), "\n") {
		text := strings.TrimSuffix(line, "\n")
		b.WriteString(fitSaid(text, w) + line[len(text):])
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

// Commands are the svcwallet commands a line may name for its reader to
// run (the command line's test holds them to its commands): "svcwallet
// gets a fresh quote" is a sentence, not a command to keep whole.
var Commands = []string{"auth", "builder", "completion", "deposit", "doctor", "env", "help", "history", "key", "man", "sandbox", "status", "version", "withdraw"}

// commands is how a command to run begins: svcwallet's own, and Foundry's
// that signs a file prepared offline.
var commands = regexp.MustCompile(`\b(svcwallet (?:` + strings.Join(Commands, "|") + `)\b|cast wallet )`)

// glued is text with the spaces of each command to run in it glued: a
// command runs to the backtick that closes it, or to its line's end or
// the sentence's next step (commandEnd).
func glued(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		head := speaker.FindString(line)
		rest := line[len(head):]
		var b strings.Builder
		b.WriteString(head)
		for {
			m := commands.FindStringSubmatchIndex(rest)
			if m == nil {
				break
			}
			at := m[2]
			end := at + commandEnd(rest[at:])
			if at > 0 && rest[at-1] == '`' {
				if n := strings.IndexByte(rest[at:], '`'); n >= 0 {
					end = at + n
				}
			}
			b.WriteString(rest[:at] + strings.ReplaceAll(rest[at:end], " ", glue))
			rest = rest[end:]
		}
		lines[i] = quoted.ReplaceAllStringFunc(b.String()+rest, func(q string) string {
			at := strings.IndexAny(q, `'"`) // the space before the quote breaks
			return q[:at] + strings.ReplaceAll(q[at:], " ", glue)
		})
	}
	return strings.Join(lines, "\n")
}

// quoted is a word quoted for the shell (safetext.ShellWord: a path with
// a space, after --signer) or a TOML string after "= ": broken at its
// space, the path copied from it named another file.
var quoted = regexp.MustCompile(`(?:^|[ (=])'[^'\n]*'|= "[^"\n]*"`)

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
