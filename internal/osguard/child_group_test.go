package osguard_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/signer"
)

// groupRoleVar makes the test binary, run by TestGroupCommandEndsWhole, a
// wrapper that starts a sleeper (the binary again) and prints its pid, as
// a wrapper script starts the real signer. Not SVCWALLET_: ChildEnv drops
// those.
const groupRoleVar = "OSGUARD_TEST_GROUP_ROLE"

// TestGroupHelperProcess is the wrapper and the sleeper; run as a test, it
// does nothing.
func TestGroupHelperProcess(t *testing.T) {
	switch os.Getenv(groupRoleVar) {
	case "wrapper":
		c := exec.Command(os.Args[0], "-test.run=^TestGroupHelperProcess$")
		c.Env = append(os.Environ(), groupRoleVar+"=sleeper")
		if err := c.Start(); err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		fmt.Println(c.Process.Pid)
		_ = c.Wait()
		os.Exit(0)
	case "leaver":
		// A wrapper that ends before what it started, as a shell ended
		// by ctrl+c or ctrl+\ leaves a child it ran in the background,
		// which ignores both.
		c := exec.Command(os.Args[0], "-test.run=^TestGroupHelperProcess$")
		c.Env = append(os.Environ(), groupRoleVar+"=sleeper")
		if err := c.Start(); err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		fmt.Println(c.Process.Pid)
		os.Exit(0)
	case "sleeper":
		time.Sleep(5 * time.Minute)
		os.Exit(0)
	}
}

// TestSignCommandEndsWithItsWrapper: what a signing command started ends
// when the command does, not only when its context does: on the command
// line the command's group has the terminal, so ctrl+c or ctrl+\ ended a
// wrapper script while the signer it ran in the background (which ignores
// both) kept waiting for a device's yes, and svcwallet said nothing was
// signed (seen in tmux: sleep outlived sh after ctrl+\ and ctrl+c).
func TestSignCommandEndsWithItsWrapper(t *testing.T) {
	switch runtime.GOOS {
	case "linux", "windows", "darwin", "dragonfly", "freebsd", "netbsd", "openbsd":
	default:
		t.Skip("a group is ended with its leader on Linux (waitid), macOS and the BSDs (kqueue) and Windows (the job object) only")
	}
	for name, start := range map[string]signer.Starter{
		"console":      signer.SignCommandStarter(false),
		"command line": signer.SignCommandStarter(true),
	} {
		t.Run(name, func(t *testing.T) {
			c := start(context.Background(), os.Args[0], "-test.run=^TestGroupHelperProcess$")
			c.Cmd.Env = append(c.Cmd.Env, groupRoleVar+"=leaver")
			c.Cmd.WaitDelay = 2 * time.Second
			out, err := c.Cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(line))
			if err != nil {
				t.Fatalf("the wrapper printed %q", line)
			}
			_ = c.Wait()
			for end := time.Now().Add(5 * time.Second); alive(pid) && time.Now().Before(end); {
				runtime.Gosched()
			}
			if alive(pid) {
				kill(pid)
				t.Fatalf("the wrapper's child %d outlived the wrapper", pid)
			}
		})
	}
}

// TestGroupCommandEndsWhole: when its context ends, a child made by
// GroupCommandContext, or by SignCommandStarter for either face, is killed
// with everything it started (here the sleeper a wrapper runs), not only
// itself: by its process group on unix, by its job object on Windows.
func TestGroupCommandEndsWhole(t *testing.T) {
	for name, start := range map[string]signer.Starter{
		"GroupCommandContext": osguard.GroupCommandContext,
		"console":             signer.SignCommandStarter(false),
		"command line":        signer.SignCommandStarter(true),
	} {
		t.Run(name, func(t *testing.T) { requireEndsWhole(t, start) })
	}
}

// requireEndsWhole starts a wrapper through start, ends its context and
// waits for the wrapper's own child to be gone.
func requireEndsWhole(t *testing.T, start signer.Starter) {
	ctx, cancel := context.WithCancel(context.Background())
	c := start(ctx, os.Args[0], "-test.run=^TestGroupHelperProcess$")
	c.Cmd.Env = append(c.Cmd.Env, groupRoleVar+"=wrapper")
	// Were the sleeper left running, it would hold the pipe open: Wait
	// gives up on it after this, and the check below fails.
	c.Cmd.WaitDelay = 2 * time.Second
	out, err := c.Cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("the wrapper printed %q", line)
	}
	cancel()
	_ = c.Wait()
	// A killed process dies at once, but asynchronously: wait for it.
	for end := time.Now().Add(5 * time.Second); alive(pid) && time.Now().Before(end); {
		runtime.Gosched()
	}
	if alive(pid) {
		kill(pid)
		t.Fatalf("the child's own child %d outlived the context", pid)
	}
}
