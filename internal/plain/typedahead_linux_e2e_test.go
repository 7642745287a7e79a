//go:build e2e && linux

package plain

import (
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// TestTypedAheadOfAQuietQuestionTaken: the login choice typed as soon as
// "How do you log in?" shows, before its prompt line, is the answer, never
// dropped unsaid: whether it reached the terminal's queue before the
// question was read (a quick hand) or while the terminal was being put in
// key mode. Key mode was set with a flush that dropped the line silently,
// and the question waited for an answer already typed.
func TestTypedAheadOfAQuietQuestionTaken(t *testing.T) {
	for _, when := range []string{"before the question", "as key mode is set"} {
		t.Run(when, func(t *testing.T) {
			p, ptmx, tty, shown, _ := quietRig(t)
			typeAhead := func() bool {
				io.WriteString(ptmx, "1\r")
				return queued(tty)
			}
			if when == "before the question" && !typeAhead() {
				t.Fatal("the answer typed ahead never reached the terminal's queue")
			}
			if when == "as key mode is set" {
				var once sync.Once
				keys := p.gate.Keys
				p.gate.Keys = func() (io.ReadCloser, error) {
					once.Do(func() {
						if !typeAhead() {
							t.Error("the answer typed ahead never reached the terminal's queue")
						}
					})
					return keys()
				}
			}
			done := make(chan result, 1)
			go func() {
				p.BeforeSecret()
				i, err := p.Choose("How do you log in?", Options("API key", "Wallet signature"))
				done <- result{i, err}
			}()
			select {
			case r := <-done:
				if r.err != nil || r.chose != 0 {
					t.Fatalf("chose %d, %v", r.chose, r.err)
				}
			case <-time.After(stall):
				t.Fatalf("the answer typed ahead was never taken; the terminal showed %q", ansi.Strip(shown.String()))
			}
			tty.WriteString("end\n")
			until(t, "the end", func() bool { return strings.Contains(shown.String(), "end") })
			if text := ansi.Strip(shown.String()); !strings.Contains(text, "Choose 1 or 2, or type the name: 1\r\n") ||
				strings.Contains(text, "Discarded") {
				t.Errorf("the terminal showed %q", text)
			}
		})
	}
}

// queued waits, at most stall, until the terminal tty holds a line unread.
func queued(tty *os.File) bool {
	for end := time.Now().Add(stall); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if n, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCINQ); err == nil && n > 0 {
			return true
		}
	}
	return false
}

// TestEmptyDiscardFlushesNothing: a line that reaches the terminal just
// after the discard found its queue empty is left to be read: the discard
// flushed it unsaid as it set the terminal back.
func TestEmptyDiscardFlushesNothing(t *testing.T) {
	ptmx, tty := openTerminal(t)
	go io.Copy(io.Discard, ptmx) // the echo
	held, err := discardTaken(tty, func(f *os.File) ([]byte, error) {
		b, err := takeInput(f)
		io.WriteString(ptmx, "typed just after\n")
		if !queued(tty) {
			t.Error("the line never reached the terminal's queue")
		}
		return b, err
	})
	if held || err != nil {
		t.Fatalf("held %v, %v", held, err)
	}
	if n, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCINQ); n == 0 || err != nil {
		t.Fatalf("the line typed just after was dropped (%d unread, %v)", n, err)
	}
	if line, err := ReadLine(tty); line != "typed just after" || err != nil {
		t.Errorf("read %q, %v", line, err)
	}
}

// TestTypedAheadOfASigningQuestionDiscardedAndSaid: a y and Enter that
// reach the terminal as its keys are set up for a question that signs are
// discarded and said, never dropped unsaid; the n typed after is the answer.
func TestTypedAheadOfASigningQuestionDiscardedAndSaid(t *testing.T) {
	p, ptmx, tty, shown, reads := quietRig(t)
	var once sync.Once
	keys := p.gate.Keys
	p.gate.Keys = func() (io.ReadCloser, error) {
		once.Do(func() {
			io.WriteString(ptmx, "y\r")
			if !queued(tty) {
				t.Error("the y typed ahead never reached the terminal's queue")
			}
		})
		return keys()
	}
	type result struct {
		yes bool
		err error
	}
	done := make(chan result, 1)
	go func() {
		yes, err := p.Confirm(func() string { return "Sign?" })
		done <- result{yes, err}
	}()
	until(t, "the discard said, then the question", func() bool {
		return strings.Contains(ansi.Strip(shown.String()), discardedWords+"\r\nSign? [y/n] ")
	})
	for len(reads) > 0 {
		within(t, "a read of the keys", reads)
	}
	for _, k := range []string{"n", "\r"} {
		io.WriteString(ptmx, k)
		within(t, "a read of the keys", reads)
	}
	if r := within(t, "the answer", done); r.yes || r.err != nil {
		t.Fatalf("yes %v, %v", r.yes, r.err)
	}
	if text := ansi.Strip(shown.String()); strings.Contains(text, pasted) || strings.Count(text, "Sign? [y/n] ") != 1 {
		t.Errorf("the terminal showed %q", text)
	}
}

// TestKeyTypedAsKeyModeIsSetDoesNotSign: a single y that reaches the
// terminal's line just before it goes to key mode for a question that
// signs (typed before the question showed), then an Enter typed once it
// shows, past the dwell, does not answer y: the y is discarded, and said.
// The discard came before key mode, which then read the y as a key.
func TestKeyTypedAsKeyModeIsSetDoesNotSign(t *testing.T) {
	ptmx, tty := openTerminal(t)
	shown := newTranscript()
	go io.Copy(shown, ptmx)
	g := TerminalGate(tty, tty)
	var mu sync.Mutex
	clock := time.Unix(1_700_000_000, 0)
	// Each look a second on: every answer past the dwell, no two keys a paste.
	g.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); clock = clock.Add(time.Second); return clock }
	keys := g.Keys
	g.Keys = func() (io.ReadCloser, error) {
		io.WriteString(ptmx, "y")
		// Echoed by the terminal as it takes the y into its line.
		until(t, "the y in the terminal's line", func() bool { return strings.Contains(shown.String(), "y") })
		return keys()
	}
	type asked struct {
		answer string
		err    error
	}
	done := make(chan asked, 1)
	go func() {
		answer, err := g.Ask(context.Background(), tty, func() string { return "Sign? " }, nil)
		done <- asked{answer, err}
	}()
	until(t, "the question", func() bool { return strings.Contains(shown.String(), "Sign? ") })
	io.WriteString(ptmx, "\r")
	select {
	case r := <-done:
		if r.answer != "" || r.err != nil {
			t.Fatalf("answer %q, %v; the terminal showed %q", r.answer, r.err, ansi.Strip(shown.String()))
		}
	case <-time.After(stall):
		t.Fatalf("the Enter was never read; the terminal showed %q", ansi.Strip(shown.String()))
	}
	if text := ansi.Strip(shown.String()); !strings.Contains(text, discardedWords+"\r\nSign? ") {
		t.Errorf("the terminal showed %q", text)
	}
}

// TestAnswerTypedAsTheListShowsTaken: after a question that holds echo
// off (one that signs), the next choice typed as soon as its title and
// list show, before its prompt line, is seen and taken: echo comes back
// before the question is written. It came back only at the prompt line,
// so the choice typed at the list was discarded as typed unseen.
func TestAnswerTypedAsTheListShowsTaken(t *testing.T) {
	p, ptmx, tty, shown, reads := quietRig(t)
	p.out = typedAt{File: tty, text: "Home: what next?", typed: func() {
		io.WriteString(ptmx, "Withdraw USDT\n")
		if !queued(tty) {
			t.Error("the choice never reached the terminal's queue")
		}
	}}
	taken := make(chan error, 1)
	done := make(chan result, 1)
	go func() {
		_, err := p.Confirm(func() string { return "Sign?" })
		taken <- err
		i, err := p.Choose("Home: what next?", Options("Deposit addresses", "Withdraw USDT"))
		done <- result{i, err}
	}()
	until(t, "the question that signs", func() bool { return strings.Contains(shown.String(), "Sign?") })
	for _, k := range []string{"y", "\r"} {
		io.WriteString(ptmx, k)
		within(t, "a read of the keys", reads)
	}
	if err := within(t, "the question answered", taken); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.err != nil || r.chose != 1 {
			t.Fatalf("chose %d, %v", r.chose, r.err)
		}
	case <-time.After(stall):
		t.Fatalf("the choice typed at the list was never taken; the terminal showed %q", ansi.Strip(shown.String()))
	}
	if text := ansi.Strip(shown.String()); strings.Contains(text, "Discarded") {
		t.Errorf("the terminal showed %q", text)
	}
}

// result is a choice made, or the error that ended its question.
type result struct {
	chose int
	err   error
}

// typedAt is a terminal the prompter writes to on which, as text is
// written, typed runs once: a person typing at what just showed.
type typedAt struct {
	*os.File
	text  string
	typed func()
}

func (w typedAt) Write(b []byte) (int, error) {
	n, err := w.File.Write(b)
	if strings.Contains(string(b), w.text) {
		w.typed()
	}
	return n, err
}
