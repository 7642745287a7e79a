package plain

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/intent"
)

// fakeTerminal is a terminal on a fake clock: lines typed ahead wait in
// its input, lines typed later come each after a wait from the moment
// they are read for.
type fakeTerminal struct {
	now     time.Time
	ahead   []string
	later   []typedLater
	flushes int
}

type typedLater struct {
	after time.Duration
	line  string
}

func (f *fakeTerminal) gate() Gate {
	return Gate{Flush: func() (bool, error) {
		f.flushes++
		held := len(f.ahead) > 0
		f.ahead = nil
		return held, nil
	}, Now: func() time.Time { return f.now }}
}

func (f *fakeTerminal) read() (string, error) {
	if len(f.ahead) > 0 {
		line := f.ahead[0]
		f.ahead = f.ahead[1:]
		return line, nil
	}
	if len(f.later) == 0 {
		return "", ErrEnd
	}
	next := f.later[0]
	f.later = f.later[1:]
	f.now = f.now.Add(next.after)
	return next.line, nil
}

// TestGateDiscardsTypedAhead: what waits in the terminal's input when a
// question that signs is asked (the end of a paste, keys typed ahead) is
// discarded before the question is written, and said; the answer typed
// after it, once the review has been read, is the one taken.
func TestGateDiscardsTypedAhead(t *testing.T) {
	term := &fakeTerminal{now: time.Unix(1, 0), ahead: []string{"y", "yes"}, later: []typedLater{{time.Second, "n"}}}
	var out bytes.Buffer
	answer, err := term.gate().Ask(context.Background(), &out, func() string { return "Sign? " }, term.read)
	if err != nil || answer != "n" || term.flushes != 1 {
		t.Fatalf("answer %q, %v, %d discards; wrote %q", answer, err, term.flushes, out.String())
	}
	if out.String() != discardedWords+"\nSign? " {
		t.Errorf("wrote %q", out.String())
	}
}

// TestGateRefusesEarlyAnswers: an answer that comes before the question
// has been on the terminal for intent.ReviewDwell is refused with a word
// that says why, what came with it discarded and the question asked again;
// one at exactly the dwell is taken.
func TestGateRefusesEarlyAnswers(t *testing.T) {
	term := &fakeTerminal{now: time.Unix(1, 0), later: []typedLater{
		{10 * time.Millisecond, "y"}, {intent.ReviewDwell - time.Nanosecond, "y"}, {intent.ReviewDwell, "n"}}}
	var out bytes.Buffer
	asked := 0
	answer, err := term.gate().Ask(context.Background(), &out, func() string { asked++; return "Sign? " }, term.read)
	if err != nil || answer != "n" {
		t.Fatalf("answer %q, %v; wrote %q", answer, err, out.String())
	}
	if asked != 3 || term.flushes != 3 || strings.Count(out.String(), tooSoon+"\n") != 2 {
		t.Errorf("asked %d times, %d discards; wrote %q", asked, term.flushes, out.String())
	}
	if !strings.Contains(tooSoon, "Too soon") || !strings.Contains(tooSoon, "paste") || !strings.Contains(tooSoon, "500ms") {
		t.Errorf("the refusal says %q", tooSoon)
	}
}

// TestGateOffATerminal: the zero Gate (answers from no terminal) asks and
// reads, and discards or refuses nothing; it is no terminal to sign on.
func TestGateOffATerminal(t *testing.T) {
	term := &fakeTerminal{ahead: []string{"y"}}
	var out bytes.Buffer
	answer, err := Gate{}.Ask(context.Background(), &out, func() string { return "Sign? " }, term.read)
	if err != nil || answer != "y" || (Gate{}).OnTerminal() || !term.gate().OnTerminal() {
		t.Fatalf("answer %q, %v", answer, err)
	}
	var buf bytes.Buffer
	if g := TerminalGate(strings.NewReader("y\n"), &buf); g.OnTerminal() {
		t.Error("a reader that is no terminal is a terminal to sign on")
	}
}

// TestConfirmDropsALineReadAhead: a line the prompter read before the
// question (a follow that stops at enter reads ahead) does not answer it.
func TestConfirmDropsALineReadAhead(t *testing.T) {
	var out bytes.Buffer
	p := NewPrompter(context.Background(), strings.NewReader("n\n"), &out, nil)
	p.gate = Gate{Flush: func() (bool, error) { return false, nil }, Now: readingClock()}
	ahead := make(chan lineRead, 1)
	ahead <- lineRead{line: "y"}
	p.pending = ahead
	yes, err := p.Confirm(func() string { return "Sign and withdraw?" })
	if err != nil || yes {
		t.Fatalf("confirmed %v, %v: the line read ahead answered; wrote %q", yes, err, out.String())
	}
}

// TestConfirmAndTypedWordAreGated: plain mode's questions that sign, the
// y and the typed yes of a severe loss, and the builder's API key choice,
// take no answer that comes too soon: each is refused, said, and asked
// again.
func TestConfirmAndTypedWordAreGated(t *testing.T) {
	for name, ask := range map[string]func(*Prompter) (bool, error){
		"confirm":    func(p *Prompter) (bool, error) { return p.Confirm(func() string { return "Sign?" }) },
		"typed word": func(p *Prompter) (bool, error) { return p.TypedWord("Type yes:", "yes") },
		// A builder's API key: "yes" typed as the question shows makes none.
		"choose to authorize": func(p *Prompter) (bool, error) {
			i, err := p.ChooseToAuthorize("Create an API key?", Options("No", "Yes"))
			return i == 1, err
		},
	} {
		var out bytes.Buffer
		p := NewPrompter(context.Background(), strings.NewReader("yes\nno\n"), &out, nil)
		at := time.Unix(1, 0)
		reads := 0
		// The first answer comes at once, the second a second later.
		p.gate = Gate{Flush: func() (bool, error) { return false, nil }, Now: func() time.Time {
			reads++
			if reads == 4 {
				at = at.Add(time.Second)
			}
			return at
		}}
		yes, err := ask(p)
		if err != nil || yes || !strings.Contains(out.String(), tooSoon) {
			t.Errorf("%s: answered %v, %v; wrote %q", name, yes, err, out.String())
		}
	}
}

// TestOneDiscardSaysIt: every discard of type-ahead says it in one line
// when the terminal held any (Gate.Discard, before a pasted signature), or
// when keys were dropped after the question before (a passphrase's,
// Prompter.dropped, said once); nothing held, nothing said; off a
// terminal, nothing is flushed.
func TestOneDiscardSaysIt(t *testing.T) {
	for _, c := range []struct {
		held, dropped bool
		says          string
	}{{false, false, ""}, {true, false, discardedWords + "\n"}, {false, true, discardedWords + "\n"}, {true, true, discardedWords + "\n"}} {
		var out bytes.Buffer
		g := Gate{Flush: func() (bool, error) { return c.held, nil }}
		p := &Prompter{out: &out, dropped: c.dropped}
		p.discardAhead(g)
		if out.String() != c.says || p.dropped {
			t.Errorf("held %v, dropped %v: the passphrase's discard wrote %q, dropped left %v", c.held, c.dropped, out.String(), p.dropped)
		}
		out.Reset()
		g.Discard(&out)
		if want := map[bool]string{true: discardedWords + "\n"}[c.held]; out.String() != want {
			t.Errorf("held %v: Discard wrote %q", c.held, out.String())
		}
	}
	var out bytes.Buffer
	Gate{}.Discard(&out)
	if out.Len() != 0 {
		t.Errorf("off a terminal: %q", out.String())
	}
}
