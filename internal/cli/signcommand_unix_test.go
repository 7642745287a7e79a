//go:build e2e && unix

package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// wrapperSigner writes a signing command that starts a child (a sleep,
// as a wrapper script starts the real signer) and waits for it, and
// returns the command line and the file where it writes the child's pid.
func wrapperSigner(t *testing.T) (line, pidFile string) {
	t.Helper()
	dir := t.TempDir()
	pidFile = filepath.Join(dir, "child.pid")
	script := filepath.Join(dir, "wrapper.sh")
	body := "#!/bin/sh\nsleep 300 &\necho $! > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"\nwait\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return script + " " + pidFile, pidFile
}

// childPid waits for the wrapper to say its child's pid, and kills the
// child when the test ends, whatever it found.
func childPid(t *testing.T, pidFile string) int {
	t.Helper()
	pid, err := readChildPid(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// readChildPid is childPid without the test, for a goroutine of its own.
func readChildPid(pidFile string) (int, error) {
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) { // polling, not ordering
		if b, err := os.ReadFile(pidFile); err == nil {
			return strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	return 0, errors.New("the signing command never started its child")
}

// requireGone fails unless pid ends soon: a killed process dies at once,
// but asynchronously.
func requireGone(t *testing.T, pid int) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) { // polling, not ordering
		if !processAlive(pid) {
			return
		}
	}
	t.Fatalf("the signing command's child %d outlived it", pid)
}

// processAlive: pid runs, and is not a zombie waiting for a parent to
// reap it (in a container, pid 1 may never reap it).
func processAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// TestSignCommandChildrenEnd (issue 25 item 8): on the command line, as in
// the console, a signing command runs in a process group of its own that
// ends whole: what it started (the signer a wrapper runs) does not outlive
// its timeout, nor a ctrl+c (or SIGTERM) that cancels the wait.
func TestSignCommandChildrenEnd(t *testing.T) {
	for _, how := range []string{"timed out", "cancelled"} {
		t.Run(how, func(t *testing.T) {
			withdrawState(t)
			r := newStatusRig(t)
			line, pidFile := wrapperSigner(t)
			cfg := fmt.Sprintf("signer = \"command\"\naccount = %q\nsign_command = %q\nsign_timeout = \"1s\"\n", sandbox.DemoAddress, line)
			run := keyRun{vars: noKeys, config: cfg}
			if how == "cancelled" {
				cfg = strings.Replace(cfg, `"1s"`, `"1h"`, 1)
				run.config = cfg
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go func() { readChildPid(pidFile); cancel() }() // ctrl+c once the child runs
				run.ctx = ctx
			}
			res := r.runKeys(run, "status", "q-unknown")
			want := map[string]string{"timed out": "no signature after waiting 1s", "cancelled": "cancelled while waiting for the signing command wrapper.sh"}[how]
			if res.code != exitError || !strings.Contains(res.stderr, want) {
				t.Fatalf("exit %d, want %q:\n%s", res.code, want, res.stderr)
			}
			requireGone(t, childPid(t, pidFile))
		})
	}
}

// TestSignCommandChildrenEndOnSIGTERM: svcwallet told to end (SIGTERM, as
// kill and timeout(1) send; SIGHUP, as a closed terminal sends) while a
// signing command runs ends the command's process group with it, as
// ctrl+c does: the group is its own, so a signal to svcwallet's group no
// longer reaches it.
func TestSignCommandChildrenEndOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "svcwallet")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cfgPath, _ := localConfig(t)
	line, pidFile := wrapperSigner(t)
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg = fmt.Appendf(cfg, "signer = \"command\"\naccount = %q\nsign_command = %q\n", sandbox.DemoAddress, line)
	if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			os.Remove(pidFile)
			cmd := exec.Command(bin, "status", "q-unknown", "--config", cfgPath)
			cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_CONFIG_HOME="+dir)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := childPid(t, pidFile)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			// A bound, not an order: svcwallet still running, or its stderr
			// still held open by the command's child, fails by name.
			cmd.WaitDelay = 5 * time.Second
			ended := make(chan error, 1)
			go func() { ended <- cmd.Wait() }()
			var err error
			select {
			case err = <-ended:
			case <-time.After(15 * time.Second):
				_ = cmd.Process.Kill()
				<-ended
				t.Fatalf("svcwallet still running 15 s after %v; it said:\n%s", sig, stderr.String())
			}
			if !strings.Contains(stderr.String(), "cancelled while waiting for the signing command wrapper.sh") {
				t.Errorf("svcwallet ended (%v) saying:\n%s", err, stderr.String())
			}
			requireGone(t, pid)
		})
	}
}
