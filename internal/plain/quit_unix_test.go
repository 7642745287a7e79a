//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos

package plain

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestQuitRaisedAgainToTheCommandsCatch: a read's ctrl+\ (quitAsAlways)
// gives the terminal back, then raises the quit again with its own catch
// let go, so the command's catch (cli's interruptible) takes it: resetting
// every catch instead left Go's default, which printed every goroutine's
// stack over plain mode's prompt and exited 2. The child is this test
// binary, the command's catch standing in, quitting through a read's.
func TestQuitRaisedAgainToTheCommandsCatch(t *testing.T) {
	if os.Getenv("PLAIN_QUIT_CHILD") != "" {
		commands, reads := make(chan os.Signal, 1), make(chan os.Signal, 1)
		signal.Notify(commands, syscall.SIGQUIT)
		signal.Notify(reads, syscall.SIGQUIT)
		out, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		quitAsAlways(out, &unix.Termios{}, reads)
		<-commands
		os.Stdout.WriteString("taken by the command\n")
		return
	}
	// A bound, not an order: a child whose quit never reaches the
	// command's catch would wait for it for ever, and is killed.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestQuitRaisedAgainToTheCommandsCatch$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PLAIN_QUIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "taken by the command") {
		t.Errorf("a read's ctrl+\\ with the command catching it: %v, said %.300q; want the command's catch to take it", err, out)
	}
}
