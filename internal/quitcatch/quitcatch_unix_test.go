//go:build unix

package quitcatch

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childVar runs the test again as a process started with the environment
// the test chose: init is only seen at work in a process of its own.
const childVar = "QUITCATCH_TEST_CHILD"

// child runs test name again in a process of its own with GOTRACEBACK as
// traceback ("" unset) and a standard input that never ends, so a child
// left to Go's dump blocks reading it rather than ending by itself.
func child(t *testing.T, name, traceback string) (stdout, stderr string, err error) {
	t.Helper()
	// A bound, not an order: a child that never ends is killed.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOTRACEBACK=") }), childVar+"=1")
	if traceback != "" {
		cmd.Env = append(cmd.Env, "GOTRACEBACK="+traceback)
	}
	r, w, perr := os.Pipe()
	if perr != nil {
		t.Fatal(perr)
	}
	defer r.Close()
	defer w.Close()
	cmd.Stdin = r
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// TestQuitBeforeAnyHandlerIsHeld: a ctrl+\ that comes before any handler
// reads the catch (here, before the test reads it) neither dumps nor ends
// the process; it waits on Quits for the handler, which takes it once.
func TestQuitBeforeAnyHandlerIsHeld(t *testing.T) {
	if os.Getenv(childVar) != "" {
		if Quits() == nil {
			t.Fatal("ctrl+\\ is not caught with GOTRACEBACK unset")
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGQUIT)
		if s := <-Quits(); s != syscall.SIGQUIT {
			t.Fatalf("the catch delivered %v", s)
		}
		if Held() {
			t.Fatal("the quit read from Quits is held again")
		}
		os.Stdout.WriteString("held once\n")
		return
	}
	out, errOut, err := child(t, "TestQuitBeforeAnyHandlerIsHeld", "")
	if err != nil || !strings.Contains(out, "held once") || strings.Contains(errOut, "goroutine ") {
		t.Errorf("a quit before any handler: %v, said %q, stderr %.300q; want it held once, no dump", err, out, errOut)
	}
}

// TestGotracebackLeavesQuitToGo: a developer who sets GOTRACEBACK gets
// Go's dump of every goroutine at ctrl+\ (a hung process's stacks); the
// catch is not registered at all.
func TestGotracebackLeavesQuitToGo(t *testing.T) {
	if os.Getenv(childVar) != "" {
		if Quits() != nil {
			os.Stdout.WriteString("caught\n")
			return
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGQUIT)
		_, _ = os.Stdin.Read(make([]byte, 1))
		return
	}
	out, errOut, err := child(t, "TestGotracebackLeavesQuitToGo", "all")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(errOut, "SIGQUIT: quit") || !strings.Contains(errOut, "goroutine ") {
		t.Errorf("GOTRACEBACK=all and ctrl+\\: %v, said %q, stderr %.300q; want Go's dump, status 2", err, out, errOut)
	}
}
