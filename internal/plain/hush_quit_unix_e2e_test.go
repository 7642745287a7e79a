//go:build e2e && (aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package plain

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// TestQuitWhileHushedGivesEchoBack: ctrl+\ while the terminal's echo is
// held off (Gate.Hush), between two questions or at a key read inside
// that time (a question that signs, a passphrase), gives the terminal
// back echoing, as the shell had it: the key read put back the hushed
// settings it found, and the time between had no quit of its own, so the
// shell was left with echo off.
func TestQuitWhileHushedGivesEchoBack(t *testing.T) {
	switch os.Getenv("PLAIN_HUSH_CHILD") {
	case "between":
		if _, err := hushOf(os.Stdin)(); err != nil {
			t.Fatal(err)
		}
		select {}
	case "keys":
		if _, err := hushOf(os.Stdin)(); err != nil {
			t.Fatal(err)
		}
		if _, err := readKeys(os.Stdin); err != nil {
			t.Fatal(err)
		}
		select {}
	}
	for _, at := range []string{"between", "keys"} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		go io.Copy(io.Discard, ptmx)
		var errOut bytes.Buffer
		cmd := exec.Command(os.Args[0], "-test.run=^TestQuitWhileHushedGivesEchoBack$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PLAIN_HUSH_CHILD="+at, "TERM=xterm-256color")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, &errOut
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); ptmx.Close(); tty.Close() })
		settled := func() bool { // echo off, and canonical mode off too where keys are read
			m, err := unix.IoctlGetTermios(int(tty.Fd()), getTermios)
			return err == nil && m.Lflag&unix.ECHO == 0 && (at == "between") == (m.Lflag&unix.ICANON != 0)
		}
		until(t, at+": echo held off", settled)
		ended := make(chan struct{})
		go func() { _ = cmd.Wait(); close(ended) }()
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-ended:
		case <-time.After(stall):
			_ = cmd.Process.Kill()
			t.Fatalf("%s: ctrl+\\ did not quit", at)
		}
		if m, err := unix.IoctlGetTermios(int(tty.Fd()), getTermios); err != nil || m.Lflag&unix.ECHO == 0 {
			said, _, _ := strings.Cut(errOut.String(), "\n")
			t.Errorf("%s: ctrl+\\ left echo off (%v); the child said %s", at, err, said)
		}
	}
}
