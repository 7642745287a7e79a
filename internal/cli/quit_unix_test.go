//go:build unix

package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCtrlBackslashQuitsWithoutADump: ctrl+\ (SIGQUIT) ends a command as
// ctrl+c does, its context's cause naming it, and a second one is dropped:
// left to Go, it printed every goroutine's stack over plain mode's prompt
// and exited 2. The child is this test binary, interruptible and asked to
// quit twice.
func TestCtrlBackslashQuitsWithoutADump(t *testing.T) {
	if os.Getenv("CLI_TEST_QUIT") != "" {
		ctx, stop := interruptible(context.Background())
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("ended by", context.Cause(ctx))
		_ = syscall.Kill(os.Getpid(), syscall.SIGQUIT)
		fmt.Println("alive")
		stop()
		return
	}
	// A bound, not an order: a child that never quits is killed.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCtrlBackslashQuitsWithoutADump$", "-test.count=1")
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOTRACEBACK=") }), "CLI_TEST_QUIT=1")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the child did not start: %q", lines.Text())
	}
	_ = cmd.Process.Signal(syscall.SIGQUIT)
	var said []string
	for lines.Scan() {
		said = append(said, lines.Text())
	}
	err = cmd.Wait()
	if err != nil || !slices.Contains(said, "ended by quit") || !slices.Contains(said, "alive") || strings.Contains(errOut.String(), "goroutine ") {
		t.Errorf("ctrl+\\ twice: %v, said %q, stderr %.300q; want the context ended by quit, the second dropped, no dump", err, said, errOut.String())
	}
}

// TestPrintOnlyCommandEndsAtAHeldQuit: version, help and the like catch
// nothing of their own; a ctrl+\ held for them while they printed ends
// them as it ends a command (one line, 131), and none held leaves their
// status as it was.
func TestPrintOnlyCommandEndsAtAHeldQuit(t *testing.T) {
	var said strings.Builder
	if got := endedByHeldQuit(func() bool { return false }, &said, 0); got != 0 || said.Len() != 0 {
		t.Errorf("no quit held: status %d, said %q; want 0 and nothing", got, said.String())
	}
	if got := endedByHeldQuit(func() bool { return true }, &said, 0); got != 131 || said.String() != "svcwallet: ended by ctrl+\\ (SIGQUIT).\n" {
		t.Errorf("a quit held: status %d, said %q; want 131 and the line", got, said.String())
	}
}

// TestConsoleSaysWhatEndedIt: a signal that ends the console (a ctrl+\
// typed before it took the terminal) is said in one line once the
// terminal is given back; it ended with its exit status alone.
func TestConsoleSaysWhatEndedIt(t *testing.T) {
	for sig, want := range map[syscall.Signal]string{
		syscall.SIGQUIT: "svcwallet: ended by ctrl+\\ (SIGQUIT).",
		syscall.SIGINT:  "svcwallet: ended by ctrl+c (SIGINT).",
		syscall.SIGTERM: "svcwallet: ended by SIGTERM.",
		syscall.SIGHUP:  "svcwallet: ended by SIGHUP (the terminal closed).",
	} {
		if got := consoleEndedBy(signalCause(sig)); got != want {
			t.Errorf("%v: said %q, want %q", sig, got, want)
		}
	}
}
