package plain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/intent"
)

// ErrEnd is the input's end (EOF at a prompt): plain mode quits cleanly.
var ErrEnd = errors.New("the input ended")

// ErrHungUp is an ErrEnd no key asked for: the terminal closed under a
// question (a hang-up), where ErrEnd alone is ctrl+d typed.
var ErrHungUp = fmt.Errorf("%w: the terminal closed", ErrEnd)

// ErrBack is "back" typed at a question of a flow from home (Prompter.Back):
// the flow ends where it is, and home is offered again.
var ErrBack = errors.New("back home")

// backWord is what is typed to go back home, and backWords how a question
// says so.
const (
	backWord  = "back"
	backWords = "back for home"
)

// ErrInterrupted is ctrl+c at a prompt, or while waiting on the service:
// plain mode ends and says what was signed or sent.
var ErrInterrupted = errors.New("interrupted")

// maxLine bounds one line read: far above an address or an API key, far
// below what could exhaust memory.
const maxLine = 4096

// SecretReader reads one secret with echo off, writing its prompt by
// prompt once echo is off (a key typed as soon as the prompt shows is
// never echoed); nil reads a line as any other (input that is not a
// terminal echoes nothing).
type SecretReader func(ctx context.Context, prompt func()) (string, error)

// Prompter asks questions one a line and reads the answers: numbered
// choices (the number or the name), free text checked by the domain, typed
// confirmations and secrets. An empty line asks the question again; the
// input's end is ErrEnd; ctx's end (ctrl+c) is ErrInterrupted.
type Prompter struct {
	ctx    context.Context
	out    io.Writer
	in     io.Reader
	secret SecretReader
	// gate holds Confirm and TypedWord, the questions that sign, to the
	// rule of a terminal's answers (Gate); the zero Gate, to none.
	gate Gate
	// Back: a question takes "back" for ErrBack and says so, set while a
	// flow from home runs; never one that signs, nor one "back" answers.
	Back bool
	// pending is the line read in flight: asked for by a prompt or by a
	// follow that stops at enter, and taken by whichever waits next.
	pending chan lineRead
	// quiet: the next question comes right before a secret (BeforeSecret);
	// dropped: keys typed after its answer were dropped, said at the secret.
	quiet, dropped bool
	// unhush puts the terminal's echo back, held off (hush) from a
	// question before a secret or one that signs; nil when it is not held.
	unhush func()
}

type lineRead struct {
	line string
	err  error
}

// NewPrompter asks on out and reads from in until ctx ends.
func NewPrompter(ctx context.Context, in io.Reader, out io.Writer, secret SecretReader) *Prompter {
	return &Prompter{ctx: ctx, out: out, in: in, secret: secret}
}

// Blank writes an empty line, between one step and the next.
func (p *Prompter) Blank() { fmt.Fprintln(p.out) }

// lineAsked starts reading a line, unless one is being read already.
func (p *Prompter) lineAsked() chan lineRead {
	p.echoAgain() // the line is read with the terminal's echo
	if p.pending == nil {
		ch := make(chan lineRead, 1)
		p.pending = ch
		in := p.in
		go func() {
			line, err := ReadLine(in)
			ch <- lineRead{line, err}
		}()
	}
	return p.pending
}

// took marks the line read in flight as taken.
func (p *Prompter) took() { p.pending = nil }

// signing is the gate of a question that signs (discarding's).
func (p *Prompter) signing() Gate {
	p.hush() // a passphrase may follow: nothing typed ahead of it shows
	return p.discarding()
}

// discarding is the gate whose discard drops a line read ahead (by a
// follow that stops at enter) as well as the terminal's. No line is still
// being read then: every journey asks a question that reads a line
// (Home's, History's) between a follow and one that signs or authorizes.
func (p *Prompter) discarding() Gate {
	g := p.gate
	if flush := g.Flush; flush != nil {
		g.Flush = func() (bool, error) {
			dropped := p.dropReadAhead()
			held, err := flush()
			return dropped || held, err
		}
	}
	return g
}

// dropReadAhead drops a line read before the question, if one was, and
// reports whether it did.
func (p *Prompter) dropReadAhead() bool {
	select {
	case r := <-p.pending:
		if r.err == nil {
			p.took()
			return true
		}
		p.pending <- r // the input's end stays for the answer
	default:
	}
	return false
}

// read waits for the next line: ErrEnd at the input's end, ErrInterrupted
// when ctx ends first.
func (p *Prompter) read() (string, error) {
	select {
	case r := <-p.lineAsked():
		p.took()
		if errors.Is(r.err, io.EOF) {
			p.Blank() // the prompt's line is ended
			return "", ErrEnd
		}
		return strings.TrimSpace(r.line), r.err
	case <-p.ctx.Done():
		return "", ErrInterrupted
	}
}

// ReadLine reads up to a newline one byte at a time, so nothing meant for
// the next question (or the next reader of the terminal) is taken. A last
// line without a newline counts; nothing at all is io.EOF. The command
// line's questions and secrets read their lines with it too.
func ReadLine(r io.Reader) (string, error) {
	var line []byte
	var b [1]byte
	for {
		n, err := r.Read(b[:])
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			if len(line) == maxLine {
				return "", fmt.Errorf("a line is longer than %d characters", maxLine)
			}
			line = append(line, b[0])
			continue
		}
		if err == io.EOF && len(line) > 0 {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return strings.TrimSuffix(string(line), "\r"), nil
}

// Ask asks question until the answer is not empty and check (when given)
// accepts it; check's refusal is said, then the question asked again.
func (p *Prompter) Ask(question string, check func(string) error) (string, error) {
	return p.ask(question, nil, check, p.Back)
}

// Question asks a journey's question on one line, "Ask (How):", saying
// what an empty line takes when it takes something (then the empty
// answer), checked by the journey's own check. Where that check takes
// "back" as an answer (a label, any text), back is not home there: a
// real answer is never swallowed.
func (p *Prompter) Question(q intent.Question) (string, error) {
	back := p.Back && q.Check != nil && q.Check(backWord) != nil
	var notes []string
	if q.How != "" {
		notes = append(notes, q.How)
	}
	var empty *string
	if q.Empty != "" {
		notes, empty = append(notes, "an empty line takes "+q.Empty), new(string)
	}
	if back {
		notes = append(notes, backWords)
	}
	if len(notes) > 0 {
		q.Ask += " (" + strings.Join(notes, "; ") + ")"
	}
	return p.ask(q.Ask+":", empty, q.Check, back)
}

// ask asks question until an answer is taken; with back, the question
// says how to go back home (unless it says so already), and "back" does.
func (p *Prompter) ask(question string, def *string, check func(string) error, back bool) (string, error) {
	if back {
		question = backed(question)
	}
	quiet := p.quiet // the whole question, asked again too
	p.quiet = false
	for {
		answer, err := p.readAnswer(question+" ", quiet)
		switch {
		case err != nil:
			return "", err
		case back && strings.EqualFold(answer, backWord):
			return "", ErrBack
		case answer == "" && def != nil:
			return *def, nil
		case answer == "":
			continue
		}
		if check != nil {
			if err := check(answer); err != nil {
				p.Say("Not accepted: %v.", trimStop(err))
				continue
			}
		}
		return answer, nil
	}
}

// backed is question saying how to go back home, unless it says so.
func backed(question string) string {
	if strings.Contains(question, backWords) {
		return question
	}
	q := strings.TrimSuffix(question, ":")
	if strings.HasSuffix(q, ")") {
		return strings.TrimSuffix(q, ")") + "; " + backWords + "):"
	}
	return q + " (" + backWords + "):"
}

// Secret asks for a secret, read without echo on a terminal: it is never
// written back, and an empty answer asks again.
func (p *Prompter) Secret(question string) (string, error) {
	return p.secretOf(question, strings.TrimSpace)
}

// secretOf is Secret, its answer as keep leaves it: a passphrase keeps
// its spaces (a key made by key new or the console may begin or end with
// one); a line from no terminal is trimmed as every answer is.
func (p *Prompter) secretOf(question string, keep func(string) string) (string, error) {
	for {
		prompt := func() { fmt.Fprint(p.out, Fit(p.out, question+" ")) }
		if p.secret == nil {
			p.echoAgain()
			prompt()
			answer, err := p.read()
			if err != nil || answer != "" {
				return answer, err
			}
			continue
		}
		p.sayDropped()
		answer, err := p.secret(p.ctx, prompt)
		switch {
		case p.ctx.Err() != nil:
			return "", ErrInterrupted
		case errors.Is(err, io.EOF):
			p.Blank()
			return "", ErrEnd
		}
		p.Blank() // the enter typed was not echoed
		switch {
		case errors.Is(err, ErrPastedLines):
			p.Say(pastedLinesWords)
		case err != nil:
			return "", err
		case keep(answer) == "":
		case p.gate.PastedMore(p.ctx, false):
			p.Say(pastedLinesWords)
		default:
			return keep(answer), nil
		}
	}
}

// pastedLinesWords is said of a secret that came with more lines.
const pastedLinesWords = "Not taken: more lines came with it, dropped unread and not shown; it is one line. Paste or type it again."

// Option is one numbered choice: its name, typed to choose it, and what
// it is about, said after it ("" for nothing).
type Option struct{ Name, About string }

// Options are choices that are their names alone.
func Options(names ...string) []Option {
	out := make([]Option, len(names))
	for i, n := range names {
		out[i] = Option{Name: n}
	}
	return out
}

// Choose lists options under title, numbered from 1, and asks for one by
// its number or its name (any case; a name's unique beginning will do). It
// returns the index chosen.
func (p *Prompter) Choose(title string, options []Option) (int, error) {
	return p.ChooseOr(title, options, -1)
}

// ChooseOr is Choose where an empty line takes options[def], as the
// question says (none for def -1).
func (p *Prompter) ChooseOr(title string, options []Option, def int) (int, error) {
	question := p.list(title, options)
	back := p.backFrom(options)
	var empty *string
	if def >= 0 {
		question = strings.TrimSuffix(question, ":") + " (an empty line takes " + options[def].Name + "):"
		empty = &options[def].Name
	}
	answer, err := p.ask(question, empty, func(s string) error {
		_, err := pick(s, options)
		return err
	}, back)
	if err != nil {
		return 0, err
	}
	return pick(answer, options)
}

// backFrom is whether "back" goes home from a choice of options: not
// where a choice is named Back (Back home), the way that question goes back.
func (p *Prompter) backFrom(options []Option) bool {
	back := p.Back
	for _, o := range options {
		back = back && !strings.HasPrefix(strings.ToLower(o.Name), backWord)
	}
	return back
}

// list says title and the numbered options, and returns the question
// that asks for one.
func (p *Prompter) list(title string, options []Option) string {
	p.echoAgain() // before the title shows: a choice typed at the list is seen
	p.Say("%s", Fit(p.out, title))
	for i, o := range options {
		if o.About == "" {
			p.Say("  %d. %s", i+1, o.Name)
		} else {
			p.Say("  %d. %s: %s", i+1, o.Name, o.About)
		}
	}
	switch len(options) {
	case 1:
		return "Only one: type 1 or its name:"
	case 2:
		return "Choose 1 or 2, or type the name:"
	}
	return fmt.Sprintf("Choose 1 to %d, or type the name:", len(options))
}

// pick finds the option s names: its number, its name, or the one name s
// begins (any case).
func pick(s string, options []Option) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 || n > len(options) {
			return 0, fmt.Errorf("there is no choice %d: type a number from 1 to %d, or a name", n, len(options))
		}
		return n - 1, nil
	}
	for i, o := range options {
		if strings.EqualFold(o.Name, s) {
			return i, nil
		}
	}
	found := -1
	for i, o := range options {
		if len(s) <= len(o.Name) && strings.EqualFold(o.Name[:len(s)], s) {
			if found >= 0 {
				return 0, fmt.Errorf("%s begins more than one choice: type more of it, or its number", safetext.NameQuoted(s))
			}
			found = i
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("no choice is called %s: type a number from 1 to %d, or a name", safetext.NameQuoted(s), len(options))
	}
	return found, nil
}

// Confirm asks a yes-or-no question that signs until it is answered: y or
// yes confirms, n or no declines, and nothing else does either, so a key
// pressed out of habit (enter) confirms nothing. question is asked anew
// each time, so what it counts down is current. On a terminal it is held
// to the gate's rule (Gate.Ask).
func (p *Prompter) Confirm(question func() string) (bool, error) {
	for {
		answer, err := p.signing().Ask(p.ctx, p.out, func() string { return question() + " [y/n] " }, p.read)
		if err != nil {
			return false, err
		}
		switch strings.ToLower(answer) {
		case "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		case "":
			continue
		}
		p.Say("Type y for yes or n for no.")
	}
}

// TypedWord asks a question that signs once: true only when the answer is
// word (any case). Anything else, an empty line included, is a no, so
// neither a held enter nor a y typed out of habit says yes. On a terminal
// it is held to the gate's rule (Gate.Ask).
func (p *Prompter) TypedWord(question, word string) (bool, error) {
	answer, err := p.signing().Ask(p.ctx, p.out, func() string { return question + " " }, p.read)
	if err != nil {
		return false, err
	}
	return strings.EqualFold(answer, word), nil
}

// TerminalSecret reads secrets from f with echo off when f is a terminal;
// nil when it is not one. Once the line is read, or ctrl+c ends the read,
// the terminal is as it was, so the shell is not left blind; after ctrl+z
// and fg, echo is off again before the next key.
func TerminalSecret(f *os.File) SecretReader {
	if !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	g := TerminalGate(f, f)
	return func(ctx context.Context, prompt func()) (string, error) { return readHidden(ctx, f, g, prompt) }
}
