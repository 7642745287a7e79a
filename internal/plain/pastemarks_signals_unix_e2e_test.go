//go:build e2e && (aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package plain

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// TestPasteMarksOffAtAStopAndAQuit: the terminal asked to mark pastes is
// asked to stop before a shell gets it back: at a stop (ctrl+z, a job's
// SIGTSTP), asked again at the continue (a shell's line editor turns the
// mode off as it runs fg), and at ctrl+\ (SIGQUIT), whose default action
// left the mode on, and a secret's read with echo off. A shell without
// its own use of the mode then shows a paste's marks as text; one with it
// (bash, zsh) turned it off for the rest of the question. The reads run
// in a child process, in a job of its own, on a pseudo-terminal.
func TestPasteMarksOffAtAStopAndAQuit(t *testing.T) {
	switch os.Getenv("PLAIN_MARKS_CHILD") {
	case "keys":
		if _, err := readKeys(os.Stdin); err != nil {
			t.Fatal(err)
		}
		select {}
	case "hidden":
		_, _ = readHidden(context.Background(), os.Stdin, TerminalGate(os.Stdin, os.Stdin), func() {})
		t.Fatal("the secret's read ended")
	}
	for _, read := range []string{"keys", "hidden"} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		shown := newTranscript()
		go io.Copy(shown, ptmx)
		var errOut bytes.Buffer
		cmd := exec.Command(os.Args[0], "-test.run=^TestPasteMarksOffAtAStopAndAQuit$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PLAIN_MARKS_CHILD="+read, "TERM=xterm-256color")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, &errOut
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a job, as a shell makes
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); ptmx.Close(); tty.Close() })
		marked := func() bool {
			s := shown.String()
			return strings.LastIndex(s, ansi.SetModeBracketedPaste) > strings.LastIndex(s, ansi.ResetModeBracketedPaste)
		}
		unmarked := func() bool { return !marked() }
		until(t, read+": pastes marked", marked)
		asked := strings.Count(shown.String(), ansi.SetModeBracketedPaste)
		_ = cmd.Process.Signal(syscall.SIGTSTP)
		var ws unix.WaitStatus
		if _, err := unix.Wait4(cmd.Process.Pid, &ws, unix.WUNTRACED, nil); err != nil || !ws.Stopped() {
			t.Fatalf("%s: the child did not stop: %v", read, err)
		}
		if read == "keys" { // a secret's read is stopped by the kernel: nothing to write then
			until(t, "stopped, the terminal no longer marking pastes for the shell", unmarked)
		}
		_ = cmd.Process.Signal(syscall.SIGCONT)
		until(t, read+": pastes marked again at the continue", func() bool {
			return marked() && strings.Count(shown.String(), ansi.SetModeBracketedPaste) > asked
		})
		ended := make(chan struct{})
		go func() { _ = cmd.Wait(); close(ended) }()
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-ended:
		case <-time.After(stall):
			_ = cmd.Process.Kill()
			t.Fatalf("%s: ctrl+\\ did not quit", read)
		}
		until(t, read+": after ctrl+\\, the terminal no longer marking pastes", unmarked)
		if m, err := unix.IoctlGetTermios(int(tty.Fd()), getTermios); err != nil || m.Lflag&unix.ECHO == 0 {
			said, _, _ := strings.Cut(errOut.String(), "\n")
			t.Errorf("%s: ctrl+\\ left echo off (%v); the child said %s", read, err, said)
		}
	}
}
