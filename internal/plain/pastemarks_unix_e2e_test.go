//go:build e2e && (aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package plain

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// markingTerminal is a terminal that marks a paste (bracketed paste) only
// while it was asked to, as a real one does: it reads what the program
// wrote for the requests.
type markingTerminal struct {
	shown *transcript
	ptmx  io.Writer
}

// paste writes s as one piece of a paste, its start mark before the first
// piece and its end mark after the last, where the terminal was asked.
func (m markingTerminal) paste(s string, first, last bool) {
	text := m.shown.String()
	if strings.LastIndex(text, ansi.SetModeBracketedPaste) > strings.LastIndex(text, ansi.ResetModeBracketedPaste) {
		if first {
			s = ansi.BracketedPasteStart + s
		}
		if last {
			s += ansi.BracketedPasteEnd
		}
	}
	io.WriteString(m.ptmx, s)
}

// until polls cond, an observable state, for at most stall.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(stall); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("never: %s", what)
		}
	}
}

// within waits for what ch gives, for at most stall: a key never read or
// an answer never given fails the test by name, not the run by its timeout.
func within[T any](t *testing.T, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(stall):
		t.Fatalf("never: %s", what)
		panic("unreachable")
	}
}

// TestPasteInPiecesRefusedWhole: a paste that reaches the terminal in
// pieces (a slow ssh link, a long paste), each piece read alone and far
// apart (the clock moves a second a read, so timing cannot tell), is still
// a paste: "y" then its Enter never answers a question that signs; a
// secret's line whose paste goes on after it is refused whole, the rest
// read and dropped, never left to answer what is asked next. The terminal
// is asked to mark pastes while it is read, and asked to stop after.
func TestPasteInPiecesRefusedWhole(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	ptmx, tty := openTerminal(t)
	shown := newTranscript()
	go io.Copy(shown, ptmx)
	term := markingTerminal{shown: shown, ptmx: ptmx}
	g := TerminalGate(tty, tty)
	var mu sync.Mutex
	clock := time.Unix(1_700_000_000, 0)
	g.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); clock = clock.Add(time.Second); return clock }

	// Each wait's count is taken before what it waits for is set going:
	// taken after, what came at once was counted already.
	count := func(s string) func() bool {
		n := strings.Count(shown.String(), s)
		return func() bool { return strings.Count(shown.String(), s) > n }
	}
	asked := count("Sign? ")
	answered := make(chan string, 1)
	go func() {
		a, err := g.Ask(context.Background(), tty, func() string { return "Sign? " }, nil)
		if err != nil {
			a = err.Error()
		}
		answered <- a
	}()
	until(t, "the question", asked)
	echoed := count("Sign? y")
	term.paste("y", true, false)
	until(t, "the paste's y read", echoed)
	refusedPaste, askedAgain := count(pasted), count("Sign? ")
	term.paste("\r", false, true)
	until(t, "the pasted answer refused", refusedPaste)
	// Typed before the question is asked again, a key is discarded unseen.
	until(t, "the question asked again", askedAgain)
	for _, k := range []string{"y", "\r"} { // typed: each read alone
		read := count(k)
		io.WriteString(ptmx, k)
		until(t, "a typed key read", func() bool { return read() || len(answered) > 0 })
	}
	if a := within(t, "the answer", answered); a != "y" {
		t.Fatalf("answered %q", a)
	}

	// The secret's paste is followed on a clock the test holds still, so
	// only its end mark ends the follow: each wait it asks for is told.
	waits := make(chan chan time.Time)
	follow := g
	follow.Now = func() time.Time { return time.Unix(1_700_000_000, 0) }
	follow.After = func(time.Duration) <-chan time.Time { c := make(chan time.Time, 1); waits <- c; return c }
	hidden := make(chan error, 4)
	p := NewPrompter(context.Background(), tty, tty, func(ctx context.Context, prompt func()) (string, error) {
		s, err := readHidden(ctx, tty, follow, prompt)
		hidden <- err
		return s, err
	})
	p.gate = g
	echoBackAtEnd(t, ptmx, p)
	secret, asked := make(chan string, 1), count("API key:")
	go func() {
		s, err := p.Secret("API key:")
		if err != nil {
			s = err.Error()
		}
		secret <- s
	}()
	until(t, "the secret's question", asked)
	term.paste("first-line\n", true, false)
	// The rest of the paste comes once the line was read, and its check
	// done: a secret taken by then was the paste's first line.
	var wait chan time.Time
	select {
	case wait = <-waits:
	case s := <-secret:
		t.Fatalf("a paste's first line was taken as the secret: %q", s)
	case <-time.After(stall):
		t.Fatal("never: the line read and its paste followed on")
	}
	refused, again := count(pastedLinesWords), count("API key:")
	term.paste("second-line\n", false, true)
	for followed := false; !followed; {
		wait <- time.Time{}
		select {
		case wait = <-waits:
		case err := <-hidden:
			if !errors.Is(err, ErrPastedLines) {
				t.Fatalf("the secret's line whose paste went on was read with %v", err)
			}
			followed = true
		case <-time.After(stall):
			t.Fatal("never: the paste's end read")
		}
	}
	until(t, "the pasted lines refused", refused)
	until(t, "asked again", again)
	term.paste("the-key", true, true) // pasted, its Enter typed
	io.WriteString(ptmx, "\n")
	if s := within(t, "the secret read", secret); s != "the-key" {
		t.Fatalf("the secret read is %q, want the-key", s)
	}
	// A passphrase may be pasted, but not with its Enter: one read alone,
	// between the paste's pieces, came with it.
	reads := make(chan struct{}, 256)
	keys := g.Keys
	p.gate.Keys = func() (io.ReadCloser, error) {
		k, err := keys()
		return countedReads{k, reads}, err
	}
	pass, asked := make(chan string, 1), count("Passphrase:")
	go func() {
		s, err := p.Passphrase("Passphrase:")
		if err != nil {
			s = err.Error()
		}
		pass <- s
	}()
	until(t, "the passphrase's question", asked)
	refused, again = count(pastedEnterWords), count("Passphrase:")
	for i, piece := range []string{"pass", "\r"} {
		term.paste(piece, i == 0, false)
		within(t, "a read of the keys", reads)
	}
	until(t, "the passphrase with a pasted Enter refused", func() bool { return refused() || len(pass) > 0 })
	if len(pass) > 0 {
		t.Fatalf("a passphrase whose Enter came in its paste, alone in a read, was taken: %q", <-pass)
	}
	until(t, "asked again", again)
	term.paste("", false, true) // the paste's end, read as the question is asked again
	within(t, "a read of the keys", reads)
	term.paste("pass", true, true)
	within(t, "a read of the keys", reads)
	io.WriteString(ptmx, "\r")
	if s := within(t, "the passphrase read", pass); s != "pass" {
		t.Fatalf("the passphrase read is %q, want pass", s)
	}

	ended := count("end") // counted before it is written, which the transcript may show at once
	tty.WriteString("end\n")
	until(t, "the end", ended)
	text := shown.String()
	if strings.LastIndex(text, ansi.SetModeBracketedPaste) > strings.LastIndex(text, ansi.ResetModeBracketedPaste) {
		t.Errorf("the terminal was left marking pastes: %q", text)
	}
}

// countedReads tells each read of the keys on reads.
type countedReads struct {
	io.ReadCloser
	reads chan<- struct{}
}

func (c countedReads) Read(b []byte) (int, error) {
	n, err := c.ReadCloser.Read(b)
	select { // a test that counts none never holds the keys up
	case c.reads <- struct{}{}:
	default:
	}
	return n, err
}
