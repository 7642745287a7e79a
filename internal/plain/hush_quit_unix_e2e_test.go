//go:build e2e && (aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos)

package plain

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
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

// TestHushHeldAgainAfterContinue: a stop and continue (ctrl+z, then fg)
// while the terminal's echo is held off gives it back with the shell's
// settings, echo on; the hush is set again at SIGCONT, between questions
// and after a key read inside, the one begun in the shell's settings
// too. The echo came back until the next question: a passphrase typed
// ahead showed.
func TestHushHeldAgainAfterContinue(t *testing.T) {
	ptmx, tty := openTerminal(t)
	go io.Copy(io.Discard, ptmx)
	fd := int(tty.Fd())
	shells, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		t.Fatal(err)
	}
	mode := func(want uint64) func() bool { // the Lflag bits of ECHO and ICANON
		return func() bool {
			m, err := unix.IoctlGetTermios(fd, getTermios)
			return err == nil && uint64(m.Lflag&(unix.ECHO|unix.ICANON)) == want
		}
	}
	atFg := func() { // the shell gives the terminal back as it had it, then continues
		if err := unix.IoctlSetTermios(fd, setTermios, shells); err != nil {
			t.Fatal(err)
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGCONT)
	}
	hushed, err := hushOf(tty)()
	if err != nil {
		t.Fatal(err)
	}
	unhush := sync.OnceFunc(hushed)
	t.Cleanup(unhush) // a failure here leaves no hush to set at a later test's SIGCONT
	atFg()
	until(t, "echo off again between questions", mode(unix.ICANON))
	keys, err := readKeys(tty)
	if err != nil {
		t.Fatal(err)
	}
	closeKeys := sync.OnceValue(keys.Close)
	t.Cleanup(func() { closeKeys() })
	atFg()
	until(t, "key mode again at a key read", mode(0))
	closeKeys()
	if !mode(unix.ICANON)() {
		t.Fatal("a key read ended the hush")
	}
	if err := unix.IoctlSetTermios(fd, setTermios, shells); err != nil { // fg before the read began
		t.Fatal(err)
	}
	if keys, err = readKeys(tty); err != nil {
		t.Fatal(err)
	}
	keys.Close()
	if !mode(unix.ICANON)() {
		t.Error("a key read begun in the shell's settings ended the hush")
	}
	unhush()
	if !mode(unix.ICANON | unix.ECHO)() {
		t.Error("echo not given back")
	}
}
