//go:build e2e && (aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package plain

import (
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestSecretTypedAheadNeverEchoed: a passphrase typed ahead, arriving
// with the Enter of the question before it (a quick hand, a slow link's
// packet), never shows: that question is read with echo off, its answer
// echoed by the gate up to its Enter; what came after is dropped and said
// at the passphrase, which then takes what is typed at it. Before, the
// terminal echoed it as it came, above the discard's words.
func TestSecretTypedAheadNeverEchoed(t *testing.T) {
	p, ptmx, tty, shown, reads := quietRig(t)
	type result struct {
		chose int
		pass  string
		err   error
	}
	done := make(chan result, 1)
	go func() {
		p.BeforeSecret()
		i, err := p.Choose("Which keystore key?", Options("first", "another file"))
		if err != nil {
			done <- result{err: err}
			return
		}
		pass, err := p.Passphrase("Passphrase:")
		done <- result{i, pass, err}
	}()
	until(t, "the question", func() bool { return strings.Contains(shown.String(), "Choose 1 or 2") })
	const ahead = "typed-ahead-passphrase"
	io.WriteString(ptmx, "1\n"+ahead)
	until(t, "the passphrase's question", func() bool { return strings.Contains(shown.String(), "Passphrase:") })
	for len(reads) > 0 { // the question's own read
		within(t, "a read of the keys", reads)
	}
	for _, k := range []string{"pw", "\r"} {
		io.WriteString(ptmx, k)
		within(t, "a read of the keys", reads)
	}
	r := within(t, "the answer", done)
	if r.err != nil || r.chose != 0 || r.pass != "pw" {
		t.Fatalf("chose %d, passphrase %q, %v", r.chose, r.pass, r.err)
	}
	tty.WriteString("end\n")
	until(t, "the end", func() bool { return strings.Contains(shown.String(), "end") })
	text := ansi.Strip(shown.String()) // the paste marks asked for
	if strings.Contains(text, "typed-ahead") || !strings.Contains(text, "Choose 1 or 2, or type the name: 1") ||
		!strings.Contains(text, discardedWords+"\r\nPassphrase:") {
		t.Errorf("the terminal showed %q", text)
	}
}

// quietRig is a prompter on a pseudo-terminal whose gate's clock moves a
// second a reading (every dwell passed), each read of its keys told on
// reads, and what the terminal shows.
func quietRig(t *testing.T) (p *Prompter, ptmx, tty *os.File, shown *transcript, reads chan struct{}) {
	ptmx, tty = openTerminal(t)
	shown = newTranscript()
	go io.Copy(shown, ptmx)
	g := TerminalGate(tty, tty)
	var mu sync.Mutex
	clock := time.Unix(1_700_000_000, 0)
	g.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); clock = clock.Add(time.Second); return clock }
	reads = make(chan struct{}, 256)
	keys := g.Keys
	g.Keys = func() (io.ReadCloser, error) {
		k, err := keys()
		return countedReads{k, reads}, err
	}
	p = NewPrompter(t.Context(), tty, tty, TerminalSecret(tty))
	p.gate = g
	echoBackAtEnd(t, ptmx, p)
	return p, ptmx, tty, shown, reads
}
