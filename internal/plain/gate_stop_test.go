package plain

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// stoppedKeys is a terminal read a key at a time that the test types on
// one read at a time (reading says a read waits), on a fake clock, and
// whose process the test stops and continues (Continued).
type stoppedKeys struct {
	mu        sync.Mutex
	now       time.Time
	reading   chan struct{}
	feed      chan string
	continued chan struct{}
	flushed   chan struct{}
}

func (k *stoppedKeys) at(d time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.now = time.Unix(1, 0).Add(d)
}

func (k *stoppedKeys) gate() Gate {
	return Gate{
		Flush: func() (bool, error) { k.flushed <- struct{}{}; return false, nil },
		Now:   func() time.Time { k.mu.Lock(); defer k.mu.Unlock(); return k.now },
		Keys:  func() (io.ReadCloser, error) { return k, nil },
	}
}

func (k *stoppedKeys) Read(b []byte) (int, error) {
	k.reading <- struct{}{}
	return copy(b, <-k.feed), nil
}

func (k *stoppedKeys) Close() error               { return nil }
func (k *stoppedKeys) Continued() <-chan struct{} { return k.continued }

// asking is a question a gate asks on stoppedKeys in the background: what
// it wrote, and its answer once given (an error's text for an error).
type asking struct {
	t        *testing.T
	k        *stoppedKeys
	out      *bytes.Buffer
	answered chan string
}

func (k *stoppedKeys) ask(t *testing.T, g Gate) *asking {
	q := &asking{t: t, k: k, out: new(bytes.Buffer), answered: make(chan string, 1)}
	go func() {
		a, err := g.Ask(context.Background(), q.out, func() string { return "Sign? " }, nil)
		if err != nil {
			a = err.Error()
		}
		q.answered <- a
	}()
	return q
}

// wait waits for c, failing if the question was answered first.
func (q *asking) wait(c chan struct{}, what string) {
	q.t.Helper()
	select {
	case <-c:
	case a := <-q.answered:
		q.t.Fatalf("answered %q before %s:\n%s", a, what, q.out.String())
	case <-time.After(5 * time.Second):
		q.t.Fatalf("no %s", what)
	}
}

// typeAt types s on the next read, the clock at d.
func (q *asking) typeAt(d time.Duration, s string) {
	q.t.Helper()
	q.wait(q.k.reading, "a read for "+s)
	q.k.at(d)
	q.k.feed <- s
}

// TestGateAsksAgainAfterAStop: the process stopped mid-answer (kill -TSTP,
// ctrl+z) and continued (fg) asks its question again: the y typed before
// the stop, with an Enter typed as it comes back, answers nothing (the
// review may be out of sight, under the shell's lines), keys read before
// the question was asked again are dropped, and an answer in the dwell
// after it is too soon.
func TestGateAsksAgainAfterAStop(t *testing.T) {
	k := &stoppedKeys{now: time.Unix(1, 0), reading: make(chan struct{}), feed: make(chan string),
		continued: make(chan struct{}, 1), flushed: make(chan struct{}, 1)}
	q := k.ask(t, k.gate())
	q.wait(k.flushed, "discard as the question is asked")
	q.typeAt(2*time.Second, "y") // the review read; then the stop
	q.wait(k.reading, "a read after y")
	k.at(10 * time.Second) // continued
	k.continued <- struct{}{}
	q.wait(k.flushed, "discard as the question is asked again")
	// An Enter typed as it came back, read before the continue was told
	// (at 9.9 s) and taken after it: read before the question, it is no
	// answer at all, not even one refused.
	k.at(9*time.Second + 900*time.Millisecond)
	k.feed <- "\r"
	q.typeAt(10*time.Second+100*time.Millisecond, "\r")
	q.wait(k.flushed, "discard as the question is asked after the refusal")
	q.typeAt(11*time.Second, "y") // stopped again
	q.wait(k.reading, "a read after y")
	k.at(20 * time.Second)
	k.continued <- struct{}{}
	q.wait(k.flushed, "discard as the question is asked again")
	k.at(20*time.Second + 600*time.Millisecond) // past the dwell: the y before the stop is gone
	k.feed <- "\r"
	select {
	case a := <-q.answered:
		if a != "" {
			t.Fatalf("answered %q, typed before the stop:\n%s", a, q.out.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no answer:\n%s", q.out.String())
	}
	said := q.out.String()
	if strings.Count(said, continuedWords) != 2 || strings.Count(said, tooSoon) != 1 || strings.Count(said, "Sign? ") != 4 {
		t.Fatalf("not asked again after each stop, the answer in the dwell refused as too soon:\n%s", said)
	}
}

// toldKeys types y, then, as a terminal's Read does for keys read as the
// process is continued, tells the continue before the Enter it read
// (typed ahead with fg) is returned, then an Enter past the dwell.
type toldKeys struct {
	mu        sync.Mutex
	now       time.Time
	reads     int
	continued chan struct{}
}

func (k *toldKeys) Read(b []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.reads++
	switch k.reads {
	case 1:
		return copy(b, "y"), nil
	case 2:
		k.now = k.now.Add(time.Minute)
		k.continued <- struct{}{}
		return copy(b, "\r"), nil
	default:
		k.now = k.now.Add(time.Second)
		return copy(b, "\r"), nil
	}
}

func (k *toldKeys) Close() error               { return nil }
func (k *toldKeys) Continued() <-chan struct{} { return k.continued }

// TestGateTakesAContinueToldBeforeTheKeys: a continue told before the keys
// read with it is taken first, whichever the gate happens to see first:
// the Enter typed ahead with fg never answers with the y typed before the
// stop. Asked many times, as the order it sees them in is by chance.
func TestGateTakesAContinueToldBeforeTheKeys(t *testing.T) {
	for range 40 {
		k := &toldKeys{now: time.Unix(1, 0), continued: make(chan struct{}, 1)}
		g := Gate{
			Flush: func() (bool, error) { return false, nil },
			Now:   func() time.Time { k.mu.Lock(); defer k.mu.Unlock(); return k.now },
			Keys:  func() (io.ReadCloser, error) { return k, nil },
		}
		var out bytes.Buffer
		a, err := g.Ask(context.Background(), &out, func() string { return "Sign? " }, nil)
		if err != nil || a != "" || !strings.Contains(out.String(), continuedWords) {
			t.Fatalf("answered %q (%v), typed before the stop:\n%s", a, err, out.String())
		}
	}
}

// caughtKeys is stoppedKeys whose stop is caught and told before the
// process stops (Stopped), as the terminal's are in a shell's job.
type caughtKeys struct {
	*stoppedKeys
	stopped chan struct{}
}

func (k caughtKeys) Stopped() <-chan struct{} { return k.stopped }

// TestGateTakesNoKeyBetweenAStopAndItsContinue: a stop caught and told
// (ctrl+z in a shell's job) drops what was typed, and no key read until
// the continue answers, even past the dwell: a shell (zsh) giving the
// terminal back in key mode lets fg's Enter be read before SIGCONT is
// handled, and it answered with the y typed before the stop. Once
// continued the question is asked again.
func TestGateTakesNoKeyBetweenAStopAndItsContinue(t *testing.T) {
	k := caughtKeys{&stoppedKeys{now: time.Unix(1, 0), reading: make(chan struct{}), feed: make(chan string),
		continued: make(chan struct{}, 1), flushed: make(chan struct{}, 1)}, make(chan struct{}, 1)}
	g := k.gate()
	g.Keys = func() (io.ReadCloser, error) { return k, nil }
	q := k.ask(t, g)
	q.wait(k.flushed, "discard as the question is asked")
	q.typeAt(2*time.Second, "y") // the review read; then ctrl+z
	k.stopped <- struct{}{}
	q.typeAt(3*time.Second, "\r") // fg's Enter, read before the continue
	q.typeAt(4*time.Second, "y")
	q.typeAt(5*time.Second, "\r")
	q.wait(k.reading, "a read after the keys while stopped")
	k.at(10 * time.Second)
	k.continued <- struct{}{}
	q.wait(k.flushed, "discard as the question is asked again")
	k.at(11 * time.Second) // past the dwell
	k.feed <- "\r"
	select {
	case a := <-q.answered:
		if a != "" {
			t.Fatalf("answered %q, typed before the continue:\n%s", a, q.out.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no answer:\n%s", q.out.String())
	}
	if said := q.out.String(); strings.Count(said, continuedWords) != 1 || strings.Count(said, "Sign? ") != 2 {
		t.Fatalf("not asked again once continued:\n%s", said)
	}
}
