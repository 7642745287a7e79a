//go:build e2e && linux

package osguard

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// lentHelper names, in the test binary's environment, the child a lent
// terminal is tested in: a session of its own on a pseudo-terminal.
const lentHelper = "OSGUARD_LENT_HELPER"

// TestLentTerminalGivenBackAsLent: a signing command lent the terminal
// gives it back with the settings it was lent with, whether it ended
// leaving them changed (raw mode: no echo, no line, ctrl+c no signal) or
// was ended at its time while it prompted with echo off. Taken back as the
// child left it, plain mode's next questions were read unechoed and ctrl+c
// quit nothing (seen in tmux).
func TestLentTerminalGivenBackAsLent(t *testing.T) {
	if script := os.Getenv(lentHelper); script != "" {
		lendAndSay(script)
		return
	}
	for name, script := range map[string]string{
		"left raw":              "stty -echo -icanon -isig </dev/tty; echo set",
		"ended while prompting": "stty -echo </dev/tty; echo set; sleep 30",
	} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestLentTerminalGivenBackAsLent$", "-test.count=1")
			cmd.Env = append(os.Environ(), lentHelper+"="+script)
			ptmx, err := pty.Start(cmd)
			if err != nil {
				t.Fatal(err)
			}
			defer ptmx.Close()
			read := make(chan string, 1)
			go func() {
				var out bytes.Buffer
				_, _ = io.Copy(&out, ptmx) // ends with EIO once the child has ended
				read <- out.String()
			}()
			// A bound, not an order: a helper that never ends (stopped as it
			// takes the terminal back) fails by name, not the run.
			var out string
			select {
			case out = <-read:
			case <-time.After(60 * time.Second):
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("the helper lent %q still runs after 60 s", script)
			}
			_ = cmd.Wait()
			if !strings.Contains(out, "echo=true icanon=true isig=true") {
				t.Errorf("the terminal taken back from %q is not as lent:\n%s", script, out)
			}
		})
	}
}

// lendAndSay runs script on the terminal lent to it, ended once it says
// it has set the terminal (not after a time: on a busy machine it might
// not have yet, and the test pass with nothing to give back), and prints
// the terminal's settings once taken back.
func lendAndSay(script string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := GroupCommandContext(ctx, "sh", "-c", script)
	said, err := g.Cmd.StdoutPipe()
	if err != nil {
		fmt.Println("no pipe:", err)
		return
	}
	g.LendForeground()
	if err := g.Start(); err != nil {
		fmt.Println("not started:", err)
		return
	}
	line, _ := bufio.NewReader(said).ReadString('\n')
	cancel() // ended as sign_timeout ends it, while it prompts
	_ = g.Wait()
	if line != "set\n" {
		fmt.Printf("the script did not set the terminal: %q\n", line)
		return
	}
	t, err := unix.IoctlGetTermios(0, unix.TCGETS)
	if err != nil {
		fmt.Println("no settings:", err)
		return
	}
	fmt.Printf("echo=%v icanon=%v isig=%v\n", t.Lflag&unix.ECHO != 0, t.Lflag&unix.ICANON != 0, t.Lflag&unix.ISIG != 0)
}
