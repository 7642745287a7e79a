package cli

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/tui"
)

// TestConsoleEndMakesWhatIsOwed: once its program has ended, the console
// makes the writes its commands were handed and never ran (a journal line,
// the watch board's save as it left) and what the board owes its file
// (kit.Deps.Ended), and says on stderr those that failed, the journal's
// and the board's each with what to do; only a real terminal's run (e2e)
// noticed the end left out. It exits 1 then, not 0: a wrapper or a script
// sees that not all was written.
func TestConsoleEndMakesWhatIsOwed(t *testing.T) {
	a, stderr := endingApp(t)
	made := false
	a.console = consoleRun{terminal: func(any) bool { return true }, run: func(_ context.Context, _ CLIEnv, app *kit.App, _ *tui.Model) error {
		// As a board leaves just before q: its Cmd never runs.
		app.Writes.OweBoard(func() error { made = true; return nil })
		// A state learned just before q, for a journal that cannot be read.
		if err := os.Mkdir(app.Journal().Path(), 0o700); err != nil {
			t.Error(err)
		}
		kit.JournalState(app, "q-0001", exchange.Withdrawal{State: exchange.StateCompleted}, nil)
		app.Flushes.Swap("board", func() error { return errors.New("disk full") })
		return nil
	}}
	if code := a.execute(nil); code != exitFailed {
		t.Fatalf("exit %d, want %d as the end could not write what it owed; stderr %q", code, exitFailed, stderr.String())
	}
	if !made {
		t.Error("a write owed when the program ended was never made")
	}
	if !strings.Contains(stderr.String(), "the watch board's last changes could not be saved: disk full: check the state directory") {
		t.Errorf("a board's write that failed at the end is not said: stderr %q", stderr.String())
	}
	if !strings.Contains(stderr.String(), "the journal could not be written as the console ended: ") || !strings.Contains(stderr.String(), "the history may miss this state; check the disk") {
		t.Errorf("a journal line that failed at the end is not said with what to do: stderr %q", stderr.String())
	}
}

// TestConsoleEndSaysASendLeftOut: a review's send still out at the end's
// bound is said on stderr after the program ends, one line with what is
// known, and the exit says it too, though the end wrote all it owed: 1
// when nothing was sent, 5 when it was signed and may have left with no
// answer (its outcome not known, as withdraw's), 5 with both. It exited
// 0, a script reading the end as all done.
func TestConsoleEndSaysASendLeftOut(t *testing.T) {
	unsigned := "svcwallet: the console ended before the withdrawal of quote q-0002 was signed: nothing was sent\n"
	signed := "svcwallet: the withdrawal of quote q-0003 was signed, and the console ended before the service answered: it may or may not have been sent; run svcwallet withdraw resume q-0003\n"
	for _, c := range []struct {
		name   string
		signed []bool
		exit   int
		said   []string
	}{
		{"nothing sent", []bool{false}, exitFailed, []string{unsigned}},
		{"signed, unanswered", []bool{true}, exitError, []string{signed}},
		{"both", []bool{false, true}, exitError, []string{unsigned, signed}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, stderr := endingApp(t)
			blocked := make(chan struct{})
			defer close(blocked)
			a.console = consoleRun{terminal: func(any) bool { return true }, end: 50 * time.Millisecond, run: func(_ context.Context, _ CLIEnv, app *kit.App, _ *tui.Model) error {
				for _, isSigned := range c.signed {
					s := &kit.Sending{What: "the withdrawal of quote q-0002"}
					if isSigned {
						s = (&kit.Sending{What: "the withdrawal of quote q-0003", Check: "run svcwallet withdraw resume q-0003"}).AlreadySigned()
					}
					started := make(chan struct{})
					go app.Sends.Sent(s, func() { close(started); <-blocked })
					<-started
				}
				return nil
			}}
			if code := a.execute(nil); code != c.exit {
				t.Fatalf("exit %d, want %d; stderr %q", code, c.exit, stderr.String())
			}
			for _, want := range c.said {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("a send out at the end is not said: stderr %q, want %q", stderr.String(), want)
				}
			}
		})
	}
}

// endingApp is a command line whose state and config live in a folder of
// the test's, its stderr kept to read what the console's end said.
func endingApp(t *testing.T) (*app, *strings.Builder) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("XDG_CONFIG_HOME", tmp)
	t.Setenv("XDG_STATE_HOME", tmp)
	t.Setenv("HOME", tmp)
	var stdout, stderr strings.Builder
	return newApp(CLIEnv{Stdin: os.Stdin, Stdout: &stdout, Stderr: &stderr, Getenv: noEnv}), &stderr
}
