package plain

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// windowKeys is fakeKeys where ahead lands in the instant before key mode
// takes hold (between a discard and key mode, were the discard first):
// typed before the question shows, it waits in the terminal's queue, and
// a discard drops it; else key mode reads it as the answer's first keys.
type windowKeys struct {
	*fakeKeys
	ahead, queued string
}

func (w *windowKeys) gate() Gate {
	g := w.fakeKeys.gate()
	flush := g.Flush
	g.Flush = func() (bool, error) {
		w.mu.Lock()
		held := w.queued != ""
		w.queued = ""
		w.mu.Unlock()
		_, err := flush()
		return held, err
	}
	keys := g.Keys
	g.Keys = func() (io.ReadCloser, error) {
		w.mu.Lock()
		w.queued += w.ahead
		w.mu.Unlock()
		if _, err := keys(); err != nil {
			return nil, err
		}
		return w, nil
	}
	return g
}

func (w *windowKeys) Read(b []byte) (int, error) {
	w.mu.Lock()
	if w.queued != "" {
		n := copy(b, w.queued)
		w.queued = w.queued[n:]
		w.mu.Unlock()
		return n, nil
	}
	w.mu.Unlock()
	return w.fakeKeys.Read(b)
}

// TestGateDropsAKeyTypedAsKeyModeIsSet: a y typed before the question
// shows, landing as the terminal goes to key mode, then an Enter typed
// well past the dwell, does not answer "y": it is discarded, and said,
// before the question is written.
func TestGateDropsAKeyTypedAsKeyModeIsSet(t *testing.T) {
	w := &windowKeys{fakeKeys: &fakeKeys{now: time.Unix(1, 0), reads: []keyPress{{read, "\r"}}}, ahead: "y"}
	var out bytes.Buffer
	answer, err := w.gate().Ask(context.Background(), &out, func() string { return "Sign? " }, nil)
	if err != nil || answer != "" || out.String() != discardedWords+"\nSign? \n" {
		t.Fatalf("answer %q, %v; wrote %q", answer, err, out.String())
	}
	if w.opened != 1 || w.closed != 1 {
		t.Errorf("the terminal was put in key mode %d times and back %d", w.opened, w.closed)
	}
}

// TestPassphraseDropsAKeyTypedAsKeyModeIsSet: an x typed before the
// passphrase's question shows, landing as the terminal goes to key mode,
// is not the passphrase's first character: it is discarded, and said.
func TestPassphraseDropsAKeyTypedAsKeyModeIsSet(t *testing.T) {
	w := &windowKeys{fakeKeys: &fakeKeys{now: time.Unix(1, 0), reads: press(read, 90*time.Millisecond, "pw\r")}, ahead: "x"}
	var out bytes.Buffer
	p := NewPrompter(context.Background(), strings.NewReader(""), &out, nil)
	p.gate = w.gate()
	answer, err := p.Passphrase("Passphrase of k.json:")
	if err != nil || answer != "pw" || out.String() != discardedWords+"\nPassphrase of k.json: \n" {
		t.Fatalf("answer %q, %v; wrote %q", answer, err, out.String())
	}
}
