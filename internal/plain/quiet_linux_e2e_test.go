//go:build e2e && linux

package plain

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// TestSecretInALaterPacketNeverEchoed: a passphrase typed ahead that
// reaches the terminal after the question before it was answered and put
// the terminal back (a slow link's later packet), before the passphrase's
// question, never shows, whether that question came before a secret
// (BeforeSecret) or signs (Confirm): the terminal echoes nothing between
// them, and the passphrase's question discards it and says so. The
// terminal echoed it as it came, echo being on again between questions.
func TestSecretInALaterPacketNeverEchoed(t *testing.T) {
	for _, before := range []string{"quiet", "confirm"} {
		t.Run(before, func(t *testing.T) {
			p, ptmx, tty, shown, reads := quietRig(t)
			taken, asked := make(chan error, 1), make(chan struct{})
			done := make(chan string, 1)
			go func() {
				var err error
				if before == "quiet" {
					p.BeforeSecret()
					_, err = p.Choose("Which keystore key?", Options("first", "another file"))
				} else {
					_, err = p.Confirm(func() string { return "Sign?" })
				}
				taken <- err
				<-asked
				pass, _ := p.Passphrase("Passphrase:")
				p.echoAgain()
				done <- pass
			}()
			until(t, "the question", func() bool { return strings.Contains(shown.String(), "?") })
			answer := map[string]string{"quiet": "1", "confirm": "y"}[before]
			for _, k := range []string{answer, "\r"} {
				io.WriteString(ptmx, k)
				within(t, "a read of the keys", reads)
			}
			if err := within(t, "the question answered", taken); err != nil {
				t.Fatal(err)
			}
			const ahead = "typed-ahead-passphrase"
			io.WriteString(ptmx, ahead+"\n")
			// The line is in the terminal's queue: read by its line
			// discipline, which echoes as it reads.
			until(t, "the passphrase typed ahead in the terminal's queue", func() bool {
				n, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCINQ)
				return err == nil && n > 0
			})
			close(asked)
			until(t, "the passphrase's question", func() bool { return strings.Contains(shown.String(), "Passphrase:") })
			for len(reads) > 0 {
				within(t, "a read of the keys", reads)
			}
			for _, k := range []string{"pw", "\r"} {
				io.WriteString(ptmx, k)
				within(t, "a read of the keys", reads)
			}
			if pass := within(t, "the answer", done); pass != "pw" {
				t.Fatalf("passphrase %q", pass)
			}
			tty.WriteString("end\n")
			until(t, "the end", func() bool { return strings.Contains(shown.String(), "end") })
			if text := ansi.Strip(shown.String()); strings.Contains(text, "typed-ahead") || !strings.Contains(text, discardedWords+"\r\nPassphrase:") {
				t.Errorf("the terminal showed %q", text)
			}
		})
	}
}

// TestAnswerTypedUnseenIsDiscarded: an answer typed ahead while echo is
// held off after a question that signs, Enter and all, sat unseen in the
// terminal's queue and answered the next line question: the person saw
// an answer they never saw typed. It is discarded as echo comes back,
// said before the question shows, and the line typed at it is taken.
func TestAnswerTypedUnseenIsDiscarded(t *testing.T) {
	p, ptmx, tty, shown, reads := quietRig(t)
	taken, asked := make(chan error, 1), make(chan struct{})
	done := make(chan string, 1)
	go func() {
		_, err := p.Confirm(func() string { return "Sign?" })
		taken <- err
		<-asked
		next, _ := p.Ask("Next:", nil)
		done <- next
	}()
	until(t, "the question", func() bool { return strings.Contains(shown.String(), "Sign?") })
	for _, k := range []string{"y", "\r"} {
		io.WriteString(ptmx, k)
		within(t, "a read of the keys", reads)
	}
	if err := within(t, "the question answered", taken); err != nil {
		t.Fatal(err)
	}
	io.WriteString(ptmx, "typed-ahead-answer\n")
	until(t, "the answer typed ahead in the terminal's queue", func() bool {
		n, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCINQ)
		return err == nil && n > 0
	})
	close(asked)
	until(t, "the next question", func() bool { return strings.Contains(shown.String(), "Next:") })
	io.WriteString(ptmx, "seen\n")
	if next := within(t, "the answer", done); next != "seen" {
		t.Fatalf("the next question took %q", next)
	}
	until(t, "the answer's echo", func() bool { return strings.Contains(shown.String(), "Next: seen") })
	if text := ansi.Strip(shown.String()); strings.Contains(text, "typed-ahead-answer") || !strings.Contains(text, hiddenAheadWords+"\r\nNext: seen") {
		t.Errorf("the terminal showed %q", text)
	}
}
