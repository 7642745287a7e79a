//go:build unix

package osguard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// holdLock holds path's flock through an fd of its own, as another
// process would: flock's locks belong to an open file, so this process's
// next open of path waits for it.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
}

// manualWaits is a clock that moves only when a test fires the wait it
// was asked for (asked), and keeps what is said (said).
type manualWaits struct {
	asked chan time.Duration
	fire  chan time.Time
	said  chan Waiting
}

func newManualWaits(t *testing.T) *manualWaits {
	c := &manualWaits{asked: make(chan time.Duration), fire: make(chan time.Time, 1), said: make(chan Waiting, 4)}
	t.Cleanup(SetLockWaits(LockWaits{
		After: func(d time.Duration) <-chan time.Time {
			c.asked <- d
			return c.fire
		},
		Say: func(w Waiting) { c.said <- w },
	}))
	return c
}

// lockIn takes LockFile(path, w) on a goroutine of its own, its answer on
// the channel returned.
func lockIn(path string, w Wait) <-chan error {
	got := make(chan error, 1)
	go func() {
		unlock, err := LockFile(path, w)
		if err == nil {
			unlock()
		}
		got <- err
	}()
	return got
}

func heldLockFile(t *testing.T) (path string, release func()) {
	path = filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, holdLock(t, path)
}

// TestHeldLockIsSaidThenGivenUp: a lock another holds (a process stopped
// mid-edit, or anyone who can read a config's folder) is said once
// SayWaitAfter has passed, naming what is waited for, the lock and, on
// Linux, its holder; and given up once GiveUpAfter has, with an error
// saying who holds it and what to do. It waited in flock for ever, saying
// nothing.
func TestHeldLockIsSaidThenGivenUp(t *testing.T) {
	c := newManualWaits(t)
	lock, _ := heldLockFile(t)
	const doing = "editing the config /home/u/config.toml"
	got := lockIn(lock, Wait{Doing: doing})
	if d := <-c.asked; d != SayWaitAfter {
		t.Fatalf("the first wait is %s, not SayWaitAfter", d)
	}
	select {
	case w := <-c.said:
		t.Fatalf("said before its time: %s", w)
	default:
	}
	c.fire <- time.Time{}
	rest := <-c.asked // Say is called before
	var said Waiting
	select {
	case said = <-c.said:
	default:
		t.Fatal("a wait past SayWaitAfter was not said")
	}
	if SayWaitAfter+rest != GiveUpAfter {
		t.Errorf("given up after %s, not %s", SayWaitAfter+rest, GiveUpAfter)
	}
	c.fire <- time.Time{}
	err := <-got
	var held *LockHeldError
	if !errors.As(err, &held) {
		t.Fatalf("a held lock gave %v, not a *LockHeldError", err)
	}
	want := []string{doing, lock}
	if runtime.GOOS == "linux" {
		want = append(want, fmt.Sprintf("process %d", os.Getpid()))
	}
	for _, w := range want {
		if !strings.Contains(said.String(), w) {
			t.Errorf("the wait %q does not say %q", said, w)
		}
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
	if !strings.Contains(err.Error(), "end that process") {
		t.Errorf("%q says nothing of what to do", err)
	}
}

// TestLockGuardingASendIsWaitedFor: a lock that guards a send (the
// journal's, over its check and the intent's line) is said, but no wait
// to give it up is ever set: it is taken once free.
func TestLockGuardingASendIsWaitedFor(t *testing.T) {
	c := newManualWaits(t)
	lock, release := heldLockFile(t)
	got := lockIn(lock, Wait{Doing: "checking and recording a withdrawal", Unbounded: true})
	<-c.asked
	c.fire <- time.Time{}
	if w := <-c.said; !strings.Contains(w.String(), "waits for it to finish") {
		t.Errorf("said %q, not that it is waited for", w)
	}
	release()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("a lock guarding a send, once free: %v", err)
		}
	case d := <-c.asked:
		t.Fatalf("a lock guarding a send set a wait of %s to give up", d)
	}
}

// TestFreedLockIsTakenWithoutMore: a lock freed while it is waited for is
// taken then, nothing said and nothing more waited.
func TestFreedLockIsTakenWithoutMore(t *testing.T) {
	c := newManualWaits(t)
	lock, release := heldLockFile(t)
	got := lockIn(lock, Wait{Doing: "x"})
	<-c.asked
	release()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	select {
	case w := <-c.said:
		t.Errorf("a lock taken within SayWaitAfter said %q", w)
	default:
	}
}

// TestHeldFolderIsGivenUp: a folder's lock (the config's, which anyone
// who can read the folder can hold) is given up as a file's is.
func TestHeldFolderIsGivenUp(t *testing.T) {
	c := newManualWaits(t)
	dir := t.TempDir()
	holdLock(t, dir)
	got := make(chan error, 1)
	go func() { _, err := LockFolder(dir, Wait{Doing: "editing the config"}); got <- err }()
	<-c.asked
	c.fire <- time.Time{}
	<-c.said
	<-c.asked
	c.fire <- time.Time{}
	if err := <-got; !errors.As(err, new(*LockHeldError)) {
		t.Fatalf("a held folder gave %v, not a *LockHeldError", err)
	}
}

// TestFreeLockIsNotWaitedFor: a lock nobody holds is taken at once, with
// no wait on the clock.
func TestFreeLockIsNotWaitedFor(t *testing.T) {
	c := newManualWaits(t)
	select {
	case err := <-lockIn(filepath.Join(t.TempDir(), "x.lock"), Wait{Doing: "x"}):
		if err != nil {
			t.Fatal(err)
		}
	case d := <-c.asked:
		t.Fatalf("a free lock set a wait of %s", d)
	}
}

// TestHolderNameIsShownOnlyPlain: the holder's command name is the
// holder's own choice (another user's process names itself), so one that
// is not plain is left out and the holder named by its pid alone: an
// escape sequence in it never reaches the wait said or its error.
func TestHolderNameIsShownOnlyPlain(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux names a lock's holder")
	}
	was, err := os.ReadFile("/proc/self/comm")
	if err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile("/proc/self/comm", []byte("a\x1b[2Jb"), 0); err != nil {
		t.Skip(err)
	}
	defer os.WriteFile("/proc/self/comm", was, 0)
	c := newManualWaits(t)
	lock, _ := heldLockFile(t)
	got := lockIn(lock, Wait{Doing: "x"})
	<-c.asked
	c.fire <- time.Time{}
	said := <-c.said
	<-c.asked
	c.fire <- time.Time{}
	err = <-got
	bare := fmt.Sprintf("process %d holds", os.Getpid())
	if !strings.Contains(said.String(), bare) {
		t.Errorf("the holder is said as %q, not by its pid alone", said)
	}
	for _, s := range []string{said.String(), err.Error()} {
		if strings.ContainsAny(s, "\x1b[") {
			t.Errorf("the holder's name reached %q", s)
		}
	}
}
