package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestNotifyCommandBounded: a --notify-command is a child like the signing
// command. One that leaves a program holding its output (a sound played in
// the background) ends its run all the same, and well: status --watch
// waited as long as that program ran. One that never ends is ended with what it started.
// One that floods its output is kept to its start: all of it was held in
// memory, 30 s of it.
func TestNotifyCommandBounded(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) (path, pidFile string) {
		path, pidFile = filepath.Join(dir, name), filepath.Join(dir, name+".pid")
		body = strings.ReplaceAll(body, "PIDFILE", "'"+pidFile+"'")
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o700); err != nil {
			t.Fatal(err)
		}
		// What a script started is ended however the test ends.
		t.Cleanup(func() {
			if pid, err := readPID(pidFile); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		})
		return path, pidFile
	}
	r := newStatusRig(t)
	done := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	failed := "--notify-command for " + done + " failed"

	t.Run("output held by what it started", func(t *testing.T) {
		held, _ := script("held", "sleep 120 &\necho $! > PIDFILE\nexit 0\n")
		// It has all its time; its output is waited for 50ms once it ended.
		r.notifyWait, r.notifyPipesWait = 0, 50*time.Millisecond
		ran := make(chan statusRun, 1)
		go func() { ran <- r.run(nil, done, "--watch", "--notify-command", held) }()
		select {
		case res := <-ran:
			// It ended well: what it left running is no failure of it.
			res.want(t, exitCompleted, nil, nil)
			if strings.Contains(res.stderr, failed) {
				t.Fatalf("a notify command that ended well said to fail:\n%s", res.stderr)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("status --watch still waits for the output of a program its notify command left running")
		}
	})

	t.Run("never ends", func(t *testing.T) {
		hung, pidFile := script("hung", "sleep 120 &\necho $! > PIDFILE\nwait\n")
		r.notifyWait, r.notifyPipesWait = 500*time.Millisecond, 0
		r.run(nil, done, "--watch", "--notify-command", hung).want(t, exitCompleted, nil, []string{"--notify-command for " + done + " did not end within 500ms, so it was ended"})
		pid, err := readPID(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		if !endsWithin(pid, 10*time.Second) {
			t.Fatal("what a notify command started outlived it once its time was up")
		}
	})

	t.Run("floods", func(t *testing.T) {
		flood, _ := script("flood", "head -c 100000000 /dev/zero\nexit 3\n")
		// All its time, however slow the machine: it must end by itself.
		r.notifyWait, r.notifyPipesWait = 0, 0
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res := r.run(nil, done, "--watch", "--notify-command", flood)
		runtime.ReadMemStats(&after)
		res.want(t, exitCompleted, nil, []string{failed + " (exit status 3)"})
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
			t.Fatalf("a notify command printing 100 MB took %d MB of memory", grew>>20)
		}
	})
}

func readPID(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

// endsWithin reports whether process pid is gone or a zombie within d: a
// process killed ends once the system has delivered the signal.
func endsWithin(pid int, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if errors.Is(err, os.ErrNotExist) {
			return true
		}
		if _, after, ok := strings.Cut(string(stat), ") "); ok && strings.HasPrefix(after, "Z") {
			return true
		}
	}
	return false
}

// TestNotifyCommandInterrupted: a notifier running when svcwallet is asked
// to end (ctrl+c) is stopped with what it started, and said to be
// interrupted, not to have failed (signal: killed).
func TestNotifyCommandInterrupted(t *testing.T) {
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	path := filepath.Join(dir, "notifier")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n: > '"+started+"'\nexec sleep 120\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	c := statusCmd{env: CLIEnv{Stderr: &errOut}, app: &app{name: "svcwallet status"}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Asked to end once the notifier runs: its file is there.
		for ctx.Err() == nil {
			if _, err := os.Stat(started); err == nil {
				cancel()
			}
			time.Sleep(time.Millisecond)
		}
	}()
	c.notify(ctx, path, &follow.Followed{Follow: follow.Follow{QuoteID: "q-1", Final: true}})
	got := errOut.String()
	if !strings.Contains(got, "svcwallet status: --notify-command for q-1 was interrupted: svcwallet was asked to end") || strings.Contains(got, "failed") {
		t.Errorf("a notifier stopped by ctrl+c said:\n%s", got)
	}
}

// TestNotifyCommandThatHangsIsRunNoMore: a notify command ended at its
// time for maxNotifyHung withdrawals in a row is said once and run no
// more in that watch: each run held every other id's asks for its whole
// time, so 10,000 ids ending under a notifier that never ends held the
// watch 83 hours. Each run is counted by its word on stderr: one that
// never ends is ended at its time and says so, however soon the machine
// started it (TestNotifierRunsOnUnlessHungInARow holds the count).
func TestNotifyCommandThatHangsIsRunNoMore(t *testing.T) {
	hung := filepath.Join(t.TempDir(), "hung")
	if err := os.WriteFile(hung, []byte("#!/bin/sh\nexec sleep 120\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	r := newStatusRig(t)
	ids := r.seed(sandbox.DestCompleted, maxNotifyHung+2)
	r.clock.Advance(sandbox.DefaultSettle)
	r.notifyWait, r.notifyPipesWait = 100*time.Millisecond, 0
	res := r.run(nil, append(ids, "--watch", "--notify-command", hung)...)
	// Several lines on stderr: want would refuse them.
	if res.code != exitCompleted || strings.Count(res.stderr, "--notify-command did not end within 100ms for 3 withdrawals in a row, so it is not run again in this watch") != 1 {
		t.Fatalf("exit %d, want %d, saying once that it runs no more:\n%s", res.code, exitCompleted, res.stderr)
	}
	if n := strings.Count(res.stderr, "did not end within 100ms, so it was ended"); n != maxNotifyHung {
		t.Errorf("the notify command ran %d times, want %d: then no more:\n%s", n, maxNotifyHung, res.stderr)
	}
}
