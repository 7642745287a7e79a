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

// tickedWaits is a clock whose every wait (a PollEvery) is over at once:
// it counts them (ticks), calls onTick with each count, and keeps what is
// said and at which tick.
type tickedWaits struct {
	ticks  int
	said   []Waiting
	saidAt []int
	over   []Waiting // told Over, with overAt the tick
	overAt []int
}

func newTickedWaits(t *testing.T, onTick func(n int)) *tickedWaits {
	c := &tickedWaits{}
	t.Cleanup(SetLockWaits(LockWaits{
		After: func(d time.Duration) <-chan time.Time {
			if d != PollEvery {
				t.Errorf("a wait of %s, not PollEvery", d)
			}
			c.ticks++
			if onTick != nil {
				onTick(c.ticks)
			}
			ch := make(chan time.Time, 1)
			ch <- time.Time{}
			return ch
		},
		Say: func(w Waiting) {
			c.said = append(c.said, w)
			c.saidAt = append(c.saidAt, c.ticks)
		},
		Over: func(w Waiting) {
			c.over = append(c.over, w)
			c.overAt = append(c.overAt, c.ticks)
		},
	}))
	return c
}

func heldLockFile(t *testing.T) (path string, release func()) {
	path = filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, holdLock(t, path)
}

// lockOnce takes LockFile(path, w) and lets it go.
func lockOnce(path string, w Wait) error {
	unlock, err := LockFile(path, w)
	if err == nil {
		unlock()
	}
	return err
}

// TestHeldLockIsSaidThenGivenUp: a lock another holds (a process stopped
// mid-edit, or anyone who can read a config's folder) is said once
// SayWaitAfter has passed, naming what is waited for, the lock and, on
// Linux, its holder; and given up once GiveUpAfter has, with an error
// saying who holds it and what to do. It waited in flock for ever, saying
// nothing.
func TestHeldLockIsSaidThenGivenUp(t *testing.T) {
	c := newTickedWaits(t, nil)
	lock, _ := heldLockFile(t)
	const doing = "editing the config /home/u/config.toml"
	err := lockOnce(lock, Wait{Doing: doing})
	var held *LockHeldError
	if !errors.As(err, &held) {
		t.Fatalf("a held lock gave %v, not a *LockHeldError", err)
	}
	if len(c.said) != 1 || time.Duration(c.saidAt[0])*PollEvery != SayWaitAfter {
		t.Fatalf("said %d times, at ticks %v, not once at SayWaitAfter", len(c.said), c.saidAt)
	}
	if waited := time.Duration(c.ticks) * PollEvery; waited != GiveUpAfter || held.Waited != GiveUpAfter {
		t.Errorf("given up after %s, saying %s, not %s", waited, held.Waited, GiveUpAfter)
	}
	said := c.said[0]
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

// TestGivenUpWaitLeavesNothingWaiting: a wait given up leaves no
// goroutine behind. A blocking flock on a goroutine of its own was left
// waiting, with the OS thread it blocks, until the holder let go, one per
// wait given up (a console writing its watch board past a stopped holder
// gathered two a minute), and then took the lock for a moment.
func TestGivenUpWaitLeavesNothingWaiting(t *testing.T) {
	newTickedWaits(t, nil)
	lock, _ := heldLockFile(t)
	before := runtime.NumGoroutine()
	for range 10 {
		if err := lockOnce(lock, Wait{Doing: "x"}); !errors.As(err, new(*LockHeldError)) {
			t.Fatalf("a held lock gave %v", err)
		}
	}
	if left := runtime.NumGoroutine() - before; left >= 10 {
		t.Errorf("10 waits given up left %d goroutines", left)
	}
}

// TestLockGuardingASendIsWaitedFor: a lock that guards a send (the
// journal's, over its check and the intent's line) is said, but never
// given up: it is taken once free, however long past GiveUpAfter.
func TestLockGuardingASendIsWaitedFor(t *testing.T) {
	var release func()
	past := int(2 * GiveUpAfter / PollEvery)
	c := newTickedWaits(t, func(n int) {
		if n == past {
			release()
		}
	})
	var lock string
	lock, release = heldLockFile(t)
	if err := lockOnce(lock, Wait{Doing: "checking and recording a withdrawal", Unbounded: true}); err != nil {
		t.Fatalf("a lock guarding a send, once free: %v", err)
	}
	if c.ticks != past {
		t.Errorf("taken after %d ticks, not once free at %d", c.ticks, past)
	}
	if len(c.said) != 1 || !strings.Contains(c.said[0].String(), "waits for it to finish") {
		t.Errorf("said %q, not once that it is waited for", c.said)
	}
}

// TestSaidWaitIsToldOver: a wait said is told over once it ends, the
// lock taken (at the tick it was freed) or the wait given up, as the one
// said (its Seq), so the console's word of it stays up until then and
// no longer; two waits said are two Seqs; a wait never said is never told
// over.
func TestSaidWaitIsToldOver(t *testing.T) {
	var release func()
	past := int(2 * GiveUpAfter / PollEvery)
	c := newTickedWaits(t, func(n int) {
		if n == past {
			release()
		}
	})
	var lock string
	lock, release = heldLockFile(t)
	if err := lockOnce(lock, Wait{Doing: "checking and recording a withdrawal", Unbounded: true}); err != nil {
		t.Fatal(err)
	}
	if len(c.over) != 1 || c.overAt[0] != past || c.over[0].Seq != c.said[0].Seq {
		t.Fatalf("told over %v at ticks %v, not once at %d as said (%v)", c.over, c.overAt, past, c.said)
	}
	other, _ := heldLockFile(t)
	if err := lockOnce(other, Wait{Doing: "x"}); !errors.As(err, new(*LockHeldError)) {
		t.Fatalf("a held lock gave %v", err)
	}
	if len(c.over) != 2 || c.over[1].Seq != c.said[1].Seq || c.said[1].Seq == c.said[0].Seq {
		t.Errorf("a wait given up: said %v, told over %v", c.said, c.over)
	}
	c.ticks = 0
	freed, free := heldLockFile(t)
	release = free
	past = 1
	if err := lockOnce(freed, Wait{Doing: "x"}); err != nil || len(c.over) != 2 {
		t.Errorf("a wait never said (%v) was told over: %v", err, c.over)
	}
}

// TestFreedLockIsTakenWithoutMore: a lock freed while it is waited for is
// taken then, nothing said and nothing more waited.
func TestFreedLockIsTakenWithoutMore(t *testing.T) {
	var release func()
	c := newTickedWaits(t, func(int) { release() })
	var lock string
	lock, release = heldLockFile(t)
	if err := lockOnce(lock, Wait{Doing: "x"}); err != nil {
		t.Fatal(err)
	}
	if c.ticks != 1 || len(c.said) != 0 {
		t.Errorf("a lock freed at the first tick took %d ticks and said %q", c.ticks, c.said)
	}
}

// TestHeldFolderIsGivenUp: a folder's lock (the config's, which anyone
// who can read the folder can hold) is given up as a file's is.
func TestHeldFolderIsGivenUp(t *testing.T) {
	c := newTickedWaits(t, nil)
	dir := t.TempDir()
	holdLock(t, dir)
	if _, err := LockFolder(dir, Wait{Doing: "editing the config"}); !errors.As(err, new(*LockHeldError)) {
		t.Fatalf("a held folder gave %v, not a *LockHeldError", err)
	}
	if len(c.said) != 1 {
		t.Errorf("said %d times", len(c.said))
	}
}

// TestFreeLockIsNotWaitedFor: a lock nobody holds is taken at once, with
// no wait on the clock.
func TestFreeLockIsNotWaitedFor(t *testing.T) {
	c := newTickedWaits(t, nil)
	if err := lockOnce(filepath.Join(t.TempDir(), "x.lock"), Wait{Doing: "x"}); err != nil {
		t.Fatal(err)
	}
	if c.ticks != 0 {
		t.Errorf("a free lock waited %d ticks", c.ticks)
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
	c := newTickedWaits(t, nil)
	lock, _ := heldLockFile(t)
	err = lockOnce(lock, Wait{Doing: "x"})
	if len(c.said) != 1 || err == nil {
		t.Fatalf("said %q, then %v", c.said, err)
	}
	said := c.said[0]
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
