//go:build unix

package osguard_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/signer"
)

// TestGroupCommandEndsWhole: when its context ends, a child made by
// GroupCommandContext, or by SignCommandStarter for either face, is killed
// with everything it started (here the sleep a wrapper script runs), not
// only itself.
func TestGroupCommandEndsWhole(t *testing.T) {
	for name, start := range map[string]signer.Starter{
		"GroupCommandContext": func(ctx context.Context, n string, a ...string) (*exec.Cmd, func()) {
			return osguard.GroupCommandContext(ctx, n, a...), nil
		},
		"console":      signer.SignCommandStarter(false),
		"command line": signer.SignCommandStarter(true),
	} {
		t.Run(name, func(t *testing.T) { requireEndsWhole(t, start) })
	}
}

// requireEndsWhole starts a wrapper through start, ends its context and
// waits for the wrapper's own child to be gone.
func requireEndsWhole(t *testing.T, start signer.Starter) {
	ctx, cancel := context.WithCancel(context.Background())
	c, ended := start(ctx, "sh", "-c", "sleep 300 & echo $!; wait")
	if ended != nil {
		defer ended()
	}
	// Were the sleep left running, it would hold the pipe open: Wait gives
	// up on it after this, and the check below fails.
	c.WaitDelay = 2 * time.Second
	out, err := c.StdoutPipe()
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
		t.Fatal(err)
	}
	cancel()
	_ = c.Wait()
	// A killed process dies at once, but asynchronously: wait for it.
	for end := time.Now().Add(5 * time.Second); alive(pid) && time.Now().Before(end); {
		runtime.Gosched()
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the child's own child %d outlived the context", pid)
	}
}

// alive: pid runs, and is not a zombie waiting for a parent to reap it
// (in a container, pid 1 may never reap it).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}
