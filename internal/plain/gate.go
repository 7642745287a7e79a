package plain

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/svcwallet/svcwallet/service/intent"
)

// The one rule of a question that signs, moves money or authorizes, asked
// by plain mode and by the command line alike: it is asked only on a
// terminal (the answers read from one and the question written on one);
// what was typed or pasted before it is discarded, and said; an answer
// that comes before the question has been on the terminal for
// intent.ReviewDwell (the console's review gate holds its keys as long)
// is refused; and, where the terminal can be read a key at a time (unix),
// an answer that came as a paste is refused. Each refusal is said and the
// question asked again. A paste or keys typed ahead never answer it. Nor
// do keys typed before the process was stopped and continued (kill -TSTP,
// ctrl+z, then fg), nor just after: the question is asked again and its
// dwell starts again.

// Gate asks the questions that sign, on one terminal.
type Gate struct {
	// Flush discards what the terminal holds typed or pasted and not yet
	// read, and reports whether it held any. nil: the answers come from no
	// terminal, where nothing that signs is asked.
	Flush func() (bool, error)
	// Now is the clock the dwell and the gaps between keys are measured on.
	Now func() time.Time
	// Keys puts the terminal in key-at-a-time mode for one answer, echo
	// left to the gate, and gives its reads, what it holds unread first
	// (a question that signs discards that once key mode is set);
	// Close puts it back as it was. nil: answers are read a line at a
	// time (Windows, whose console input carries no timing), where only
	// the discard and the dwell hold.
	Keys func() (io.ReadCloser, error)
	// After waits on the clock Now reads while a paste is followed to its
	// end (PastedMore); nil: the wall clock's.
	After func(time.Duration) <-chan time.Time
	// Hush turns the terminal's echo off until the func it returns puts
	// it back: held from a question before a secret until the next line
	// question (Prompter.hush), which discards what was typed meanwhile.
	// nil: the terminal is not so held.
	Hush func() (func(), error)
	// take drops what the terminal holds and gives its bytes, where a
	// paste's end mark may be among them; nil (Windows, whose console input
	// is records): Flush tells only whether it held any.
	take func() ([]byte, error)
}

// TerminalGate is the gate of answers read from in to questions written
// on out: on a terminal when both are one, the zero Gate otherwise.
func TerminalGate(in io.Reader, out io.Writer) Gate {
	f, ok := in.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || !IsTerminal(out) {
		return Gate{}
	}
	return Gate{Flush: func() (bool, error) { return discardInput(f) }, Now: time.Now, Keys: keysOf(f),
		After: time.After, Hush: hushOf(f), take: takeOf(f)}
}

// IsTerminal reports whether stream is a terminal: what every face asks
// before drawing, prompting or discarding type-ahead on it.
func IsTerminal(stream any) bool {
	f, ok := stream.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// OnTerminal reports whether a question that signs may be asked.
func (g Gate) OnTerminal() bool { return g.Flush != nil }

// Discard drops what the terminal holds typed or pasted and not yet read,
// saying so on out when it held any, before a question that pays whose
// answer is pasted (a signature made elsewhere): pasted before the
// question showed, it was taken unseen with what was printed before it.
func (g Gate) Discard(out io.Writer) { g.discardSaying(out, false) }

// discardSaying is every discard of type-ahead (Discard, a passphrase's
// Prompter.discardAhead): it says so when the terminal held any, or when
// dropped, keys already dropped that are said at this question.
func (g Gate) discardSaying(out io.Writer, dropped bool) {
	if !g.OnTerminal() {
		return
	}
	if held, _ := g.Flush(); held || dropped {
		sayTo(out, discardedWords)
	}
}

// tooSoon is said of an answer that came within the dwell of its question.
var tooSoon = fmt.Sprintf("Too soon: an answer within %s of the question is not taken, so a paste or keys typed ahead cannot answer it. Read the review, then answer.",
	intent.ReviewDwell)

// continuedWords is said when the process was continued mid-answer.
const continuedWords = "Continued after a stop: what was typed before it is not taken. Read the review, then answer."

// pasted is said of an answer whose keys came as a paste.
const pasted = "Not taken: that answer came as a paste. Type it, a key at a time."

// Ask writes prompt() on out (Fit to a terminal's width) and reads its
// answer, under the rule: what was typed ahead is discarded first, and
// said; an answer that comes within the dwell of the question, or (read
// from Keys) came as a paste, is refused, said on out, and the question
// asked again. Without Keys the answer is read with read; the zero Gate
// only asks and reads. ctx's end (ctrl+c) while keys are read is
// ErrInterrupted.
func (g Gate) Ask(ctx context.Context, out io.Writer, prompt func() string, read func() (string, error)) (string, error) {
	return g.ask(ctx, out, prompt, read, false)
}

// ask is Ask; typedBack holds it to the passphrase's rule of a paste
// instead (Prompter.TypedBack): a pasted answer is taken once its Enter
// is typed after the paste, and keys read one at a time are not echoed.
func (g Gate) ask(ctx context.Context, out io.Writer, prompt func() string, read func() (string, error), typedBack bool) (string, error) {
	for {
		t, err := g.answer(ctx, out, prompt, read, typedBack)
		switch {
		case err != nil || !g.OnTerminal():
			return t.text, err
		case typedBack && t.pastedEnter:
			sayTo(out, pastedEnterAnswer)
		case !typedBack && t.paste:
			sayTo(out, pasted)
		case g.Now().Before(t.asked.Add(intent.ReviewDwell)):
			sayTo(out, tooSoon)
		default:
			return t.text, nil
		}
	}
}

// answer writes the question and reads its answer: a key at a time when
// the gate has Keys (and says whether it came as a paste, and when it was
// last asked), unechoed when hidden, else with read. Key mode is set
// before the discard, so a key typed before the question shows is
// discarded, never read as a key of its answer; nothing but the clock
// comes between the discard and the question.
func (g Gate) answer(ctx context.Context, out io.Writer, prompt func() string, read func() (string, error), hidden bool) (typedLine, error) {
	question := Fit(out, prompt())
	if g.Keys == nil || !g.OnTerminal() {
		asked := g.discard(out)
		fmt.Fprint(out, question)
		answer, err := read()
		return typedLine{text: answer, asked: asked}, err
	}
	keys, err := g.Keys()
	if err != nil {
		return typedLine{}, err
	}
	defer keys.Close()
	asked := g.discard(out)
	fmt.Fprint(out, question)
	again := func() {
		fmt.Fprintln(out)
		sayTo(out, continuedWords)
		fmt.Fprint(out, Fit(out, prompt()))
	}
	t, err := g.typed(ctx, out, keys, hidden, again)
	if t.asked.Before(asked) {
		t.asked = asked
	}
	return t, err
}

// discard is Discard before a question, and gives when it is asked: taken
// before it is written, so whoever answers once it shows is never counted
// early. A discard that fails leaves the dwell: each line typed ahead then
// comes at once, and is refused.
func (g Gate) discard(out io.Writer) time.Time {
	if !g.OnTerminal() {
		return time.Time{}
	}
	g.Discard(out)
	return g.Now()
}

// continues is what tells a key reader's caller the process was stopped
// and continued (the terminal's readKeys).
type continues interface{ Continued() <-chan struct{} }

// stops is what tells a key reader's caller a stop was caught before the
// process stops (the terminal's readKeys, where a shell would continue it).
type stops interface{ Stopped() <-chan struct{} }

// typedLine is an answer read a key at a time, and how its keys came:
// paste, some of them as a paste; pastedEnter, its Enter with one;
// asked, when the question was last asked (again after a stop);
// after, keys read with its Enter, after it, and dropped.
type typedLine struct {
	text                      string
	paste, pastedEnter, after bool
	asked                     time.Time
}

// keyReadSize is the most one read of the keys brings: a longer paste
// comes in several, cut anywhere (within a character or a paste's mark).
const keyReadSize = 64

// keyRead is what one read of the keys brought, and when.
type keyRead struct {
	b   []byte
	at  time.Time
	err error
}

// Bytes of a key-at-a-time answer that the terminal would have handled in
// a line: erase, erase the line, end of input, escape.
const (
	keyErase     = 0x7f
	keyBackspace = 0x08
	keyKill      = 0x15 // ctrl+u
	keyWord      = 0x17 // ctrl+w
	keyEnd       = 0x04 // ctrl+d
	keyEscape    = 0x1b
)

// typed reads one answer from keys up to Enter, echoing it on out and
// trimmed unless hidden (erase, ctrl+w and ctrl+u work, unechoed when hidden), and says whether it came as a paste:
// more than one key in one read, or a byte within intent.PasteGap of the one
// before; and whether its Enter did. A read that is a key's escape
// sequence (an arrow) is dropped. ctrl+d on an empty answer is ErrEnd,
// the terminal's end without it ErrHungUp. With again, a stop and continue
// (keys' Continued) drops what was typed, what the terminal holds and
// every key read before, and asks again: the review may be out of sight.
func (g Gate) typed(ctx context.Context, out io.Writer, keys io.Reader, hidden bool, again func()) (typedLine, error) {
	reads := make(chan keyRead, 1)
	done := make(chan struct{})
	defer close(done)
	dropped := make(chan struct{}) // an Enter read before a stop's question: read on
	go func() {
		for {
			buf := make([]byte, keyReadSize)
			n, err := keys.Read(buf)
			r := keyRead{b: buf[:n], at: g.Now(), err: err}
			select {
			case reads <- r:
			case <-done:
				return
			}
			if err != nil {
				return
			}
			// Past the Enter the terminal is put back: the line's reader
			// reads what comes next.
			if strings.ContainsAny(string(r.b), "\r\n") {
				select {
				case <-dropped:
				case <-done:
					return
				}
			}
		}
	}()
	var answer []rune
	var last, askedAgain time.Time
	var cut []byte // the end of a full read, cut within a character or a mark
	paste := false
	echo := out
	if hidden {
		echo = io.Discard
	}
	var marks pasteMarks // the flush below drops an open paste's end mark
	askAgain := func() {
		answer, cut, paste, last, marks = answer[:0], nil, false, time.Time{}, pasteMarks{}
		askedAgain = g.Now() // what the flush misses is read before it
		_, _ = g.Flush()
		again()
	}
	var continued, stopped <-chan struct{}
	if c, ok := keys.(continues); ok && again != nil {
		continued = c.Continued()
		if s, ok := keys.(stops); ok {
			stopped = s.Stopped()
		}
	}
	// held: stopped and not yet continued; what was typed is gone and no
	// key read counts, however the shell gave the terminal back.
	held := false
	hold := func() {
		answer, cut, paste, last, held, marks = answer[:0], nil, false, time.Time{}, true, pasteMarks{}
	}
	for {
		var r keyRead
		select {
		case r = <-reads:
		case <-stopped:
			hold()
			continue
		case <-continued:
			held = false
			askAgain()
			continue
		case <-ctx.Done():
			return typedLine{}, ErrInterrupted
		}
		// A continue told before these keys were read (a terminal's Read
		// waits for it) is taken first: they were typed before it.
		reasked := false
		select {
		case <-stopped:
			hold()
		default:
		}
		select {
		case <-continued:
			held = false
			askAgain()
			reasked = true
		default:
		}
		if r.err == nil && (reasked || held || r.at.Before(askedAgain)) {
			// Read while stopped or before the question was asked again.
			if strings.ContainsAny(string(r.b), "\r\n") {
				dropped <- struct{}{}
			}
			continue
		}
		if len(r.b) == 0 {
			if r.err != nil {
				fmt.Fprintln(out)
				return typedLine{}, ErrHungUp
			}
			continue
		}
		raw := append(cut, r.b...)
		cut = nil
		if len(r.b) == keyReadSize {
			raw, cut = cutEnd(raw)
		}
		if len(raw) == 0 {
			continue
		}
		// A bracketed paste's marks say a paste, however many reads it
		// took (pastemarks.go); they are no keys of the answer.
		b, bracketed := marks.take(raw)
		escape := !bracketed && raw[0] == keyEscape && !strings.ContainsAny(string(raw), "\r\n")
		oneKey := len(b) == 1 || utf8.FullRune(b) && utf8.RuneCount(b) == 1
		together := bracketed || !oneKey && !escape || !last.IsZero() && r.at.Sub(last) < intent.PasteGap
		paste = paste || together
		last = r.at
		if escape {
			continue
		}
		for i, c := range string(b) {
			switch {
			case c == '\r' || c == '\n':
				fmt.Fprintln(out)
				text := string(answer)
				if !hidden { // a passphrase's spaces are its own
					text = strings.TrimSpace(text)
				}
				return typedLine{text: text, paste: paste, pastedEnter: together, asked: askedAgain,
					after: strings.TrimSpace(string(b[i+1:])) != ""}, nil
			case c == keyEnd && len(answer) == 0:
				fmt.Fprintln(out)
				return typedLine{}, ErrEnd
			case (c == keyErase || c == keyBackspace) && len(answer) > 0:
				fmt.Fprint(echo, erase(answer[len(answer)-1:]))
				answer = answer[:len(answer)-1]
			case c == keyKill:
				fmt.Fprint(echo, erase(answer))
				answer = answer[:0]
			case c == keyWord:
				word := wordStart(answer)
				fmt.Fprint(echo, erase(answer[word:]))
				answer = answer[:word]
			case c >= ' ' && (c < keyErase || c > 0x9f) && len(answer) < maxLine:
				answer = append(answer, c)
				fmt.Fprint(echo, string(c))
			}
		}
		if r.err != nil { // the terminal ended before the Enter
			fmt.Fprintln(out)
			return typedLine{}, ErrHungUp
		}
	}
}

// cutEnd splits off the end of a read that filled its buffer when the
// read cut it: a character's first bytes or a paste's end mark's. It is
// read with the next read, so a long pasted passphrase is taken whole.
func cutEnd(b []byte) (whole, end []byte) {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i], b[i:]
			}
			break
		}
	}
	// A paste's start mark opens its first read; its end mark may be cut.
	for n := min(len(b), len(ansi.BracketedPasteEnd)-1); n > 0; n-- {
		if strings.HasPrefix(ansi.BracketedPasteEnd, string(b[len(b)-n:])) {
			return b[:len(b)-n], b[len(b)-n:]
		}
	}
	return b, nil
}

// erase is what takes the echo of typed off the screen: a wide character
// takes two columns back, a combining mark none.
func erase(typed []rune) string {
	w := ansi.StringWidth(string(typed))
	return strings.Repeat("\b", w) + strings.Repeat(" ", w) + strings.Repeat("\b", w)
}

// wordStart is where ctrl+w erases typed back to, as a terminal's line
// editor does: the spaces before the end, then the word before them.
func wordStart(typed []rune) int {
	i := len(typed)
	for i > 0 && typed[i-1] == ' ' {
		i--
	}
	for i > 0 && typed[i-1] != ' ' {
		i--
	}
	return i
}

// ChooseToSend is Choose for a question whose answer sends what was signed
// (a builder authorization sent again): held to the gate, as Confirm is, so
// no line typed ahead nor pasted answers it.
func (p *Prompter) ChooseToSend(title string, options []Option) (int, error) {
	return p.chooseHeld(p.signing, p.list(title, options), options, false)
}

// ChooseToAuthorize is Choose for a question whose answer is part of an
// authorization (an API key made with a builder's): held to the gate as a
// question that signs is, so neither a line typed ahead (discarded, and
// said) nor one typed or pasted as it shows answers it, but no passphrase
// follows, so echo is not held off; back goes home as from Choose.
func (p *Prompter) ChooseToAuthorize(title string, options []Option) (int, error) {
	question, back := p.list(title, options), p.backFrom(options)
	if back {
		question = backed(question)
	}
	return p.chooseHeld(p.discarding, question, options, back)
}

// chooseHeld asks question, held to gate's rule (Gate.Ask), until one of
// options is chosen; with back, "back" goes home.
func (p *Prompter) chooseHeld(gate func() Gate, question string, options []Option, back bool) (int, error) {
	for {
		answer, err := gate().Ask(p.ctx, p.out, func() string { return question + " " }, p.read)
		switch {
		case err != nil:
			return 0, err
		case answer == "":
			continue
		case back && strings.EqualFold(answer, backWord):
			return 0, ErrBack
		}
		i, err := pick(answer, options)
		if err == nil {
			return i, nil
		}
		p.Say("Not accepted: %v.", err)
	}
}
