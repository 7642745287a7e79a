//go:build e2e && (aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package plain

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal for the test, hung up as it ends
// whatever its outcome (hangUp), then closed: ptmx is the terminal's side
// (what is typed, what it shows; its Fd is not to be taken, see below),
// tty the program's. A machine without one skips the test.
func openTerminal(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	blocking, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	// pty.Open took ptmx's Fd, which makes its reads block outside Go's
	// poller, and a close waits for such a read: the copy of what the
	// terminal shows held it open, so the program's side never hung up. A
	// copy in nonblocking mode is polled, its close ends its read.
	fd, err := unix.Dup(int(blocking.Fd()))
	if err == nil {
		err = unix.SetNonblock(fd, true)
	}
	blocking.Close()
	if err != nil {
		t.Fatal(err)
	}
	ptmx = os.NewFile(uintptr(fd), "/dev/ptmx")
	t.Cleanup(func() {
		hangUp(t, ptmx)
		if unhushed.Load() != nil {
			t.Error("the test left the terminal's echo held off (a hush not ended)")
		}
		tty.Close()
	})
	return ptmx, tty
}

// echoBackAtEnd has the prompter p on the terminal give its echo back as
// the test ends, once hung up: a hush held is the process's (unhushed).
func echoBackAtEnd(t *testing.T, ptmx *os.File, p *Prompter) {
	t.Cleanup(func() {
		hangUp(t, ptmx)
		p.giveEchoBack()
	})
}

// hangUp closes the terminal's side, so every read of the program's ends
// (hung up), and waits until each key mode and hidden read the test began
// gave the terminal back: one left held after a failure set its mode at a
// later test's SIGCONT, and kept that test's hush from being set again.
func hangUp(t *testing.T, ptmx *os.File) {
	t.Helper()
	ptmx.Close()
	until(t, "every key mode and hidden read of the test given back", func() bool {
		modes.Lock()
		defer modes.Unlock()
		return modes.owners == 0
	})
}

// TestSecretTypedAtThePromptNotEchoed: a secret typed the instant its
// prompt shows (a paste, a quick hand, a test) is not echoed: the prompt
// is written once echo is off.
func TestSecretTypedAtThePromptNotEchoed(t *testing.T) {
	ptmx, tty := openTerminal(t)
	const key = "typed-the-instant-it-showed"
	got, err := readHidden(context.Background(), tty, TerminalGate(tty, tty), func() {
		tty.WriteString("Key: ")
		ptmx.WriteString(key + "\n")
	})
	if err != nil || got != key {
		t.Fatalf("read %q, %v", got, err)
	}
	tty.WriteString("\nend\n")
	var shown strings.Builder
	for r := bufio.NewReader(ptmx); !strings.HasSuffix(shown.String(), "end\r\n"); {
		line, err := r.ReadString('\n')
		shown.WriteString(line)
		if err != nil {
			t.Fatalf("%v after %q", err, shown.String())
		}
	}
	if strings.Contains(shown.String(), key) {
		t.Errorf("the terminal echoed the secret: %q", shown.String())
	}
}

// TestKeysOnAPseudoTerminal: the gate on a real terminal reads its answer
// a key at a time: "y" and Enter in one write (a paste) are refused, and
// the question asked again; typed apart they are taken, echoed once by the
// gate; the terminal's settings are as they were after.
func TestKeysOnAPseudoTerminal(t *testing.T) {
	ptmx, tty := openTerminal(t)
	was, err := unix.IoctlGetTermios(int(tty.Fd()), getTermios)
	if err != nil {
		t.Fatal(err)
	}
	shown := newTranscript()
	go io.Copy(shown, ptmx)
	g := TerminalGate(tty, tty)
	var mu sync.Mutex
	clock := time.Unix(1_700_000_000, 0)
	// Each look a second on: every answer past the dwell, so only keys that
	// come in one read are a paste, whatever the machine's load.
	g.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); clock = clock.Add(time.Second); return clock }
	asked := func(n int) func() bool {
		return func() bool { return strings.Count(shown.String(), "Sign? ") >= n }
	}
	answered := make(chan string, 1)
	go func() {
		a, err := g.Ask(context.Background(), tty, func() string { return "Sign? " }, nil)
		if err != nil {
			a = err.Error()
		}
		answered <- a
	}()
	until(t, "the question", asked(1))
	ptmx.WriteString("y\n") // one write: read as one paste
	until(t, "the question asked again", asked(2))
	ptmx.WriteString("y")
	until(t, "the typed y echoed", func() bool { return strings.Count(shown.String(), "Sign? y") >= 2 })
	ptmx.WriteString("\r")
	if a := within(t, "the typed answer", answered); a != "y" {
		t.Fatalf("answered %q", a)
	}
	now, err := unix.IoctlGetTermios(int(tty.Fd()), getTermios)
	if err != nil || now.Lflag != was.Lflag || now.Iflag != was.Iflag || now.Cc != was.Cc {
		t.Errorf("the terminal was not put back: %+v, was %+v (%v)", now, was, err)
	}
	tty.WriteString("end\n")
	if !shown.waitFor("end", stall) || !strings.Contains(shown.String(), pasted) || strings.Count(shown.String(), "Sign? y\r\n") != 2 {
		t.Errorf("the terminal showed %q", shown.String())
	}
}

// TestDiscardSaysWhatItHeld: a terminal's discard reports the keys typed
// ahead it dropped, a line without its Enter too, and nothing when none
// were; its settings are as they were after, and what was dropped is not
// read next.
func TestDiscardSaysWhatItHeld(t *testing.T) {
	ptmx, tty := openTerminal(t)
	go io.Copy(io.Discard, ptmx) // the echo
	was, err := unix.IoctlGetTermios(int(tty.Fd()), getTermios)
	if err != nil {
		t.Fatal(err)
	}
	for _, ahead := range []string{"right horse\n", "no enter yet"} {
		ptmx.WriteString(ahead)
		// The line discipline takes the write in its own time: the discard
		// is tried until it finds it (a discard that never says so fails).
		held := false
		for deadline := time.Now().Add(stall); !held && time.Now().Before(deadline); {
			if held, err = discardInput(tty); err != nil {
				t.Fatal(err)
			}
		}
		if !held {
			t.Errorf("%q typed ahead: the discard never said it held it", ahead)
		}
		if held, err := discardInput(tty); held || err != nil {
			t.Errorf("after the discard of %q: held %v, %v", ahead, held, err)
		}
	}
	now, err := unix.IoctlGetTermios(int(tty.Fd()), getTermios)
	if err != nil || now.Lflag != was.Lflag || now.Cc != was.Cc {
		t.Errorf("the terminal was not put back: %+v, was %+v (%v)", now, was, err)
	}
	go ptmx.WriteString("typed after\n") // behind what is left of the column, if any
	if line, err := ReadLine(tty); line != "typed after" || err != nil {
		t.Errorf("read %q, %v after the discards", line, err)
	}
}

// TestKeysReadInAShellsSettingsAreDropped: keys read while the terminal is
// in the settings a shell gave it back with at fg (canonical mode), before
// key mode is set again at SIGCONT, are dropped: read, the y typed before
// the stop and an Enter typed ahead with fg answered "Sign and withdraw?"
// before it was asked again.
func TestKeysReadInAShellsSettingsAreDropped(t *testing.T) {
	ptmx, tty := openTerminal(t)
	was, err := unix.IoctlGetTermios(int(tty.Fd()), getTermios)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := readKeys(tty)
	if err != nil {
		t.Fatal(err)
	}
	defer keys.Close()
	b := make([]byte, keyReadSize)
	ptmx.WriteString("y")
	if n, err := keys.Read(b); err != nil || string(b[:n]) != "y" {
		t.Fatalf("in key mode read %q (%v)", b[:n], err)
	}
	if err := unix.IoctlSetTermios(int(tty.Fd()), setTermios, was); err != nil { // the shell's, at fg
		t.Fatal(err)
	}
	ptmx.WriteString("\r")
	if n, err := keys.Read(b); err != nil || n != 0 {
		t.Fatalf("in the shell's settings read %q (%v), not dropped", b[:n], err)
	}
}

// TestKeysReadWhileStoppedAreDropped: keys read in key mode between a
// caught stop and the handling of its continue (a shell, zsh, giving the
// terminal back as it was at fg) are dropped: read, fg's Enter answered
// with the y typed before the stop.
func TestKeysReadWhileStoppedAreDropped(t *testing.T) {
	ptmx, tty := openTerminal(t)
	keys, err := readKeys(tty)
	if err != nil {
		t.Fatal(err)
	}
	defer keys.Close()
	k := keys.(*keyMode)
	k.continuing.Lock()
	k.held = true // as a caught SIGTSTP marks it
	k.continuing.Unlock()
	b := make([]byte, keyReadSize)
	ptmx.WriteString("\r")
	if n, err := keys.Read(b); err != nil || n != 0 {
		t.Fatalf("stopped, in key mode read %q (%v), not dropped", b[:n], err)
	}
}

// TestPastedColumnDroppedWhole: a column of 3,000 ids pasted at a
// question reaches a terminal in pieces (its line discipline holds 4 KiB,
// 22 of them here); the look-up's drop (Gate.PastedMore) takes every piece
// after its first line until the paste pauses, so none is left to answer
// the next question: a drop of what was held once left 78 of 200 lines to
// answer Home in tmux, and one of at most 16 pieces 511 of 3,000.
func TestPastedColumnDroppedWhole(t *testing.T) {
	ptmx, tty := openTerminal(t)
	go io.Copy(io.Discard, ptmx) // the echo
	var column strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&column, "q-pastedcolumnid%012d\n", i)
	}
	go ptmx.WriteString(column.String())
	p := NewPrompter(context.Background(), tty, io.Discard, nil)
	p.gate = TerminalGate(tty, tty)
	if first, err := p.read(); first != "q-pastedcolumnid000000000000" || err != nil {
		t.Fatalf("read %q, %v", first, err)
	}
	if !p.gate.PastedMore(context.Background(), false) {
		t.Fatal("the rest of the column was not found held")
	}
	go ptmx.WriteString("typed after\n") // behind what is left of the column, if any
	if line, err := p.read(); line != "typed after" || err != nil {
		t.Errorf("after the drop the next answer read %q, %v", line, err)
	}
}
