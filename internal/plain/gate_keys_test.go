package plain

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/intent"
)

// fakeKeys is a terminal read a key at a time, on a fake clock: each read
// brings its bytes after a wait from the read before (or from the
// question, for the first), what the reader's buffer cannot hold at once
// after; one with nothing to bring is the terminal's end, or with
// endsWithLast the last read brings it with its bytes, as a reader may.
type fakeKeys struct {
	mu             sync.Mutex
	now            time.Time
	reads          []keyPress
	opened, closed int
	flushes        int
	endsWithLast   bool
}

type keyPress struct {
	after time.Duration
	b     string
}

// press is the keys of s each typed gap after the one before, the first
// after first.
func press(first, gap time.Duration, s string) []keyPress {
	var out []keyPress
	for i, r := range s {
		out = append(out, keyPress{gap, string(r)})
		if i == 0 {
			out[0].after = first
		}
	}
	return out
}

func (f *fakeKeys) gate() Gate {
	return Gate{
		Flush: func() (bool, error) { f.mu.Lock(); defer f.mu.Unlock(); f.flushes++; return false, nil },
		Now:   func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now },
		Keys:  func() (io.ReadCloser, error) { f.mu.Lock(); defer f.mu.Unlock(); f.opened++; return f, nil },
	}
}

func (f *fakeKeys) Read(b []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.reads) == 0 {
		return 0, io.EOF
	}
	next := f.reads[0]
	f.reads = f.reads[1:]
	f.now = f.now.Add(next.after)
	n := copy(b, next.b)
	if n < len(next.b) { // the rest of a long paste is read next, at once
		f.reads = append([]keyPress{{0, next.b[n:]}}, f.reads...)
	}
	if f.endsWithLast && len(f.reads) == 0 {
		return n, io.EOF
	}
	return n, nil
}

func (f *fakeKeys) Close() error { f.mu.Lock(); defer f.mu.Unlock(); f.closed++; return nil }

// ask asks one question that signs on keys, reads as they come.
func ask(t *testing.T, reads ...[]keyPress) (string, string, *fakeKeys, error) {
	t.Helper()
	keys := &fakeKeys{now: time.Unix(1, 0)}
	for _, r := range reads {
		keys.reads = append(keys.reads, r...)
	}
	var out bytes.Buffer
	answer, err := keys.gate().Ask(context.Background(), &out, func() string { return "Sign? " }, func() (string, error) {
		t.Fatal("a gate with keys read a line")
		return "", nil
	})
	if keys.opened != keys.closed {
		t.Errorf("the terminal was put in key mode %d times and back %d", keys.opened, keys.closed)
	}
	return answer, out.String(), keys, err
}

const read = 2 * intent.ReviewDwell // an answer begun once the review is read

// TestGatePasteInOneRead: "y" and Enter in one read (a terminal's paste)
// are refused and said, the question asked again with what waits
// discarded; the n typed then is the answer.
func TestGatePasteInOneRead(t *testing.T) {
	answer, out, keys, err := ask(t, []keyPress{{read, "y\n"}}, press(read, 100*time.Millisecond, "n\r"))
	if err != nil || answer != "n" || strings.Count(out, pasted+"\n") != 1 || strings.Count(out, "Sign? ") != 2 || keys.flushes != 2 {
		t.Fatalf("answer %q, %v, %d discards; wrote %q", answer, err, keys.flushes, out)
	}
	if strings.Contains(out, tooSoon) {
		t.Errorf("a paste after the dwell was called too soon: %q", out)
	}
}

// TestGateKeysInABurst: "y" then Enter 1 ms apart (a paste split over two
// reads) are refused; 80 ms apart they are typed, and taken. A gap of
// intent.PasteGap itself is typing.
func TestGateKeysInABurst(t *testing.T) {
	answer, out, _, err := ask(t, press(read, time.Millisecond, "y\n"), press(read, 80*time.Millisecond, "y\n"))
	if err != nil || answer != "y" || strings.Count(out, pasted+"\n") != 1 {
		t.Fatalf("answer %q, %v; wrote %q", answer, err, out)
	}
	answer, out, _, err = ask(t, press(read, intent.PasteGap, "y\n"))
	if err != nil || answer != "y" || strings.Contains(out, pasted) {
		t.Fatalf("at the gap: answer %q, %v; wrote %q", answer, err, out)
	}
	answer, out, _, _ = ask(t, press(read, intent.PasteGap-time.Nanosecond, "y\n"), press(read, time.Second, "n\n"))
	if answer != "n" || !strings.Contains(out, pasted) {
		t.Fatalf("within the gap: answer %q; wrote %q", answer, out)
	}
}

// TestGateTypedAnswers: "yes" typed with gaps is taken and echoed as it
// is typed; erase takes back a key (and the echo), ctrl+w a word, ctrl+u the line; an
// arrow key's sequence is dropped.
func TestGateTypedAnswers(t *testing.T) {
	answer, out, _, err := ask(t, press(read, 60*time.Millisecond, "yes\r"))
	if err != nil || answer != "yes" || out != "Sign? yes\n" {
		t.Fatalf("answer %q, %v; wrote %q", answer, err, out)
	}
	answer, out, _, err = ask(t, press(read, 90*time.Millisecond, "n\x7fy\n"))
	if err != nil || answer != "y" || out != "Sign? n\b \by\n" {
		t.Fatalf("erase: answer %q, %v; wrote %q", answer, err, out)
	}
	answer, out, _, err = ask(t, press(read, 90*time.Millisecond, "no y\x17\x17yes\n"))
	if err != nil || answer != "yes" || out != "Sign? no y\b \b\b\b\b   \b\b\byes\n" {
		t.Fatalf("ctrl+w: answer %q, %v; wrote %q", answer, err, out)
	}
	// A wide character's echo is taken back two columns; a C1 control is
	// neither echoed nor taken.
	answer, out, _, err = ask(t, press(read, 90*time.Millisecond, "日\x7fn\u009b\n"))
	if err != nil || answer != "n" || out != "Sign? 日\b\b  \b\bn\n" {
		t.Fatalf("wide erase: answer %q, %v; wrote %q", answer, err, out)
	}
	answer, _, _, err = ask(t, press(read, 90*time.Millisecond, "yes\x15n\n"))
	if err != nil || answer != "n" {
		t.Fatalf("ctrl+u: answer %q, %v", answer, err)
	}
	answer, out, _, err = ask(t, []keyPress{{read, "\x1b[A"}}, press(90*time.Millisecond, 90*time.Millisecond, "n\n"))
	if err != nil || answer != "n" || strings.Contains(out, pasted) {
		t.Fatalf("arrow: answer %q, %v; wrote %q", answer, err, out)
	}
}

// TestGateKeysEnd: ctrl+d on an empty answer, or the terminal's end, is
// the input's end; nothing is answered. Only the terminal's end is a
// hang-up (ErrHungUp): no one typed ctrl+d there; also when the end comes
// with the last keys read.
func TestGateKeysEnd(t *testing.T) {
	for name, reads := range map[string][]keyPress{"ctrl+d": append([]keyPress{{read, "\x04"}}, press(read, 90*time.Millisecond, "y\n")...), "end": nil, "end in a word": press(read, 90*time.Millisecond, "ye")} {
		answer, _, _, err := ask(t, reads)
		if !errors.Is(err, ErrEnd) || answer != "" || errors.Is(err, ErrHungUp) != (name != "ctrl+d") {
			t.Errorf("%s: answer %q, %v", name, answer, err)
		}
	}
	keys := &fakeKeys{now: time.Unix(1, 0), reads: press(read, 90*time.Millisecond, "ye"), endsWithLast: true}
	answer, err := keys.gate().Ask(context.Background(), io.Discard, func() string { return "Sign? " }, func() (string, error) {
		t.Fatal("a gate with keys read a line")
		return "", nil
	})
	if !errors.Is(err, ErrHungUp) || answer != "" {
		t.Errorf("the end read with the last key: answer %q, %v", answer, err)
	}
}

// TestGateKeysKeepTheDwell: keys typed one by one but answered within the
// dwell of the question are refused as too soon.
func TestGateKeysKeepTheDwell(t *testing.T) {
	answer, out, _, err := ask(t, press(100*time.Millisecond, 100*time.Millisecond, "y\n"), press(read, 100*time.Millisecond, "n\n"))
	if err != nil || answer != "n" || !strings.Contains(out, tooSoon) || strings.Contains(out, pasted) {
		t.Fatalf("answer %q, %v; wrote %q", answer, err, out)
	}
}

// TestGateKeysInterrupted: ctrl+c (ctx's end) while keys are read is
// ErrInterrupted, and the terminal is put back.
func TestGateKeysInterrupted(t *testing.T) {
	blocked := make(chan struct{})
	defer close(blocked)
	ctx, cancel := context.WithCancel(context.Background())
	closed := 0
	g := Gate{Flush: func() (bool, error) { return false, nil }, Now: time.Now, Keys: func() (io.ReadCloser, error) {
		cancel()
		return readCloser{blocked, &closed}, nil
	}}
	var out bytes.Buffer
	if _, err := g.Ask(ctx, &out, func() string { return "Sign? " }, nil); !errors.Is(err, ErrInterrupted) || closed != 1 {
		t.Fatalf("%v, put back %d times", err, closed)
	}
}

// readCloser is a terminal on which no key comes.
type readCloser struct {
	blocked chan struct{}
	closed  *int
}

func (r readCloser) Read([]byte) (int, error) { <-r.blocked; return 0, io.EOF }
func (r readCloser) Close() error             { *r.closed++; return nil }

// TestConfirmReadsKeys: plain mode's question that signs reads its answer
// from the gate's keys: a pasted y is refused, the n typed after it taken.
func TestConfirmReadsKeys(t *testing.T) {
	keys := &fakeKeys{now: time.Unix(1, 0), reads: append([]keyPress{{read, "y\n"}}, press(read, 100*time.Millisecond, "n\n")...)}
	var out bytes.Buffer
	p := NewPrompter(context.Background(), strings.NewReader("y\n"), &out, nil)
	p.gate = keys.gate()
	yes, err := p.Confirm(func() string { return "Sign and withdraw?" })
	if err != nil || yes || !strings.Contains(out.String(), pasted) {
		t.Fatalf("confirmed %v, %v; wrote %q", yes, err, out.String())
	}
}

// TestEchoHeldOffFromQuestionToSecret: from a question that signs, or
// one before a secret, the terminal echoes nothing (Gate.Hush) through
// the passphrase after it, until a question reads a line with the
// terminal's echo, which puts it back: a passphrase typed ahead that came
// after the question's Enter, in a later packet, was echoed in between.
func TestEchoHeldOffFromQuestionToSecret(t *testing.T) {
	keys := &fakeKeys{now: time.Unix(1, 0), reads: slices.Concat(press(read, 100*time.Millisecond, "y\n"),
		press(read, 100*time.Millisecond, "pw\n"), press(read, 100*time.Millisecond, "1\n"))}
	echo, hushes := true, 0
	g := keys.gate()
	g.Hush = func() (func(), error) { echo, hushes = false, hushes+1; return func() { echo = true }, nil }
	var out bytes.Buffer
	p := NewPrompter(context.Background(), strings.NewReader("next\n"), &out, nil)
	p.gate = g
	if yes, err := p.Confirm(func() string { return "Sign?" }); !yes || err != nil || echo {
		t.Fatalf("confirmed %v, %v; echo on %v after it", yes, err, echo)
	}
	if pass, err := p.Passphrase("Passphrase:"); pass != "pw" || err != nil || echo {
		t.Fatalf("passphrase %q, %v; echo on %v after it", pass, err, echo)
	}
	if next, err := p.Ask("Next:", nil); next != "next" || err != nil || !echo {
		t.Fatalf("answer %q, %v; echo on %v as a line is read", next, err, echo)
	}
	p.BeforeSecret()
	if i, err := p.Choose("Which key?", Options("first", "another")); i != 0 || err != nil || echo || hushes != 2 {
		t.Fatalf("chose %d, %v; echo on %v after it, %d hushes", i, err, echo, hushes)
	}
	p.echoAgain()
	if !echo {
		t.Fatal("echo not put back")
	}
}

// TestEchoGivenBackAtTheEnd: plain mode, and the command line's
// passphrase (AskPassphrase), give the terminal back echoing however they
// end while its echo is held off (Gate.Hush): here the input ends at the
// question how to log in, and after the passphrase.
func TestEchoGivenBackAtTheEnd(t *testing.T) {
	echo, hushes := true, 0
	hushed := func(g Gate) Gate {
		g.Hush = func() (func(), error) { echo, hushes = false, hushes+1; return func() { echo = true }, nil }
		return g
	}
	r := newRig(t)
	r.console.Gate = hushed((&fakeKeys{now: time.Unix(1, 0)}).gate())
	if err := r.console.Run(context.Background(), strings.NewReader(""), io.Discard, nil); hushes != 1 || !echo {
		t.Errorf("plain mode ended (%v), %d hushes, with echo on %v", err, hushes, echo)
	}
	keys := &fakeKeys{now: time.Unix(1, 0), reads: press(read, 100*time.Millisecond, "pw\n")}
	if pass, err := AskPassphrase(context.Background(), hushed(keys.gate()), strings.NewReader(""), io.Discard, nil, "Passphrase:"); pass != "pw" || err != nil || hushes != 2 || !echo {
		t.Errorf("passphrase %q, %v, %d hushes; echo on %v after it", pass, err, hushes, echo)
	}
}

// TestConsoleHushByItsMode: a Windows console's hush clears the echo of
// its mode alone, and gives the mode back as it was; a mode it cannot
// read or set holds no hush.
func TestConsoleHushByItsMode(t *testing.T) {
	mode := uint32(0x01f7) // line input, echo, processed input and more
	get := func() (uint32, error) { return mode, nil }
	set := func(m uint32) error { mode = m; return nil }
	unhush, err := consoleHush(get, set)
	if err != nil || mode != 0x01f7&^consoleEchoInput {
		t.Fatalf("hushed to %#x (%v)", mode, err)
	}
	unhush()
	if mode != 0x01f7 {
		t.Errorf("given back as %#x", mode)
	}
	failed := errors.New("not a console")
	if _, err := consoleHush(func() (uint32, error) { return 0, failed }, set); err == nil {
		t.Error("a mode not read held a hush")
	}
	if _, err := consoleHush(get, func(uint32) error { return failed }); err == nil {
		t.Error("a mode not set held a hush")
	}
}

// TestTypedUnseenSaidBeforeTheNextQuestion: what the terminal holds as
// echo comes back, typed while it was held off, is discarded then and
// said before the next question shows, so what is typed at it is seen;
// a terminal holding nothing then says nothing.
func TestTypedUnseenSaidBeforeTheNextQuestion(t *testing.T) {
	for _, held := range []bool{true, false} {
		keys := &fakeKeys{now: time.Unix(1, 0), reads: press(read, 100*time.Millisecond, "y\n")}
		echo, hushed := true, false
		g := keys.gate()
		g.Hush = func() (func(), error) { echo, hushed = false, true; return func() { echo = true }, nil }
		// What was typed while hushed is found by a flush once echo is back.
		g.Flush = func() (bool, error) { return held && hushed && echo, nil }
		var out bytes.Buffer
		p := NewPrompter(context.Background(), strings.NewReader("next\n"), &out, nil)
		p.gate = g
		if yes, err := p.Confirm(func() string { return "Sign?" }); !yes || err != nil {
			t.Fatalf("confirmed %v, %v", yes, err)
		}
		out.Reset()
		next, err := p.Ask("Next:", nil)
		want := "Next: "
		if held {
			want = hiddenAheadWords + "\nNext: "
		}
		if next != "next" || err != nil || !echo || out.String() != want {
			t.Errorf("held %v: answer %q, %v; echo on %v; wrote %q", held, next, err, echo, out.String())
		}
	}
}
