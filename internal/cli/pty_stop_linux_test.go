//go:build e2e

package cli

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestHiddenPromptAfterStopAndContinue (issue 33 item 9): stopped at a
// hidden prompt (ctrl+z) and continued (fg), where the shell gave the
// terminal back with echo on, svcwallet turns echo off again before the
// secret is typed: key import's private key (the command line's hidden
// reader, also key new's passphrases) and plain mode's API key (plain
// mode's, also its passphrase) are not echoed.
func TestHiddenPromptAfterStopAndContinue(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	const short = 15 * time.Second
	t.Run("key import", func(t *testing.T) {
		s := &ptyTyping{silentTerminal: startSilent(t, bin, silentEnv(dir), "key", "import"), t: t}
		s.waitFor("Private key (hex): ", short)
		stopAndContinue(t, s)
		s.answer("", sandbox.DemoPrivateKey, short)
		s.waitFor("Passphrase: ", short)
		if strings.Contains(s.output(), sandbox.DemoPrivateKey[2:]) {
			t.Errorf("the private key is echoed:\n%s", s.output())
		}
		if _, err := s.ptmx.Write([]byte{3}); err != nil { // ctrl+c: nothing written
			t.Fatal(err)
		}
		if code := s.wait(short); code != 130 || !echoOn(t, s) {
			t.Errorf("exit %d, echo on %v", code, echoOn(t, s))
		}
	})
	t.Run("plain", func(t *testing.T) {
		s := &ptyTyping{silentTerminal: startSilent(t, bin, silentEnv(dir), "--plain"), t: t}
		s.answer("How do you log in?", "API key", short)
		s.waitFor("API key (not shown as you type): ", short)
		stopAndContinue(t, s)
		s.answer("", sandbox.DemoAPIKey, short)
		s.answer("Home: what next?", "Quit", short)
		if code := s.wait(short); code != 0 || strings.Contains(s.output(), "(not shown as you type): "+sandbox.DemoAPIKey) {
			t.Errorf("exit %d; the API key echoed?\n%s", code, s.output())
		}
	})
}

// stopAndContinue waits for echo to go off at a hidden prompt, stops the
// process (ctrl+z sends SIGTSTP, which the kernel does not deliver to a
// group without a shell: SIGSTOP stops it the same), turns echo on as the
// shell does when it takes the terminal back, continues it (fg) and waits
// for echo to be off again.
func stopAndContinue(t *testing.T, s *ptyTyping) {
	t.Helper()
	waitEcho(t, s, false, "at the hidden prompt")
	pid := s.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the process to stop", func() bool { return processState(t, pid) == "T" })
	tio, err := unix.IoctlGetTermios(int(s.ptmx.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Lflag |= unix.ECHO
	if err := unix.IoctlSetTermios(int(s.ptmx.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	waitEcho(t, s, false, "after the process was continued")
}

// waitEcho waits until the terminal's echo is on (or off).
func waitEcho(t *testing.T, s *ptyTyping, on bool, when string) {
	t.Helper()
	waitUntil(t, "echo "+map[bool]string{true: "on", false: "off"}[on]+" "+when, func() bool { return echoOn(t, s) == on })
}

// waitUntil polls done for 10 s, a guard against a stall.
func waitUntil(t *testing.T, what string, done func() bool) {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for !done() {
		if time.Now().After(end) {
			t.Fatalf("no %s after 10s", what)
		}
		time.Sleep(10 * time.Millisecond) // polling interval, not ordering
	}
}

// processState is the state letter /proc gives the process (T: stopped).
func processState(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	// pid (comm) state ...: comm may hold spaces, so read after its ')'.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return f[0]
}
