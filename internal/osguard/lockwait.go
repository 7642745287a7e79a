package osguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// SayWaitAfter is how long a lock is waited for before the wait is said:
// an honest holder (a journal append, a config rewrite) is done well
// within it, so a wait this long is another process worth naming.
const SayWaitAfter = time.Second

// GiveUpAfter bounds a wait on a lock that guards no send. The longest
// honest hold measured is a config rewrite or a journal append with its
// fsync, some milliseconds, and a fresh record of a long journal, under a
// second: a holder past this is stopped or hostile, never slow.
const GiveUpAfter = 30 * time.Second

// Wait says what a lock is waited for, in the caller's words: Doing is
// what its holder is doing ("editing the config PATH"). Unbounded is for a
// lock that guards a send: its wait is said but never given up, so the
// check it guards holds until the send.
type Wait struct {
	Doing     string
	Unbounded bool
	// Mark, when set, is left in the lock file while this process holds
	// it (lockmark.go): a word for what it does there. Marks gives a
	// waiter's words for the marks it knows, said instead of Doing.
	Mark  string
	Marks map[string]string
}

// Waiting is a wait on a lock said once it passes SayWaitAfter.
type Waiting struct {
	Wait
	Lock   string // the file or folder locked
	Holder string // "process 4242 (svcwallet)" where the system says, else ""
	// Seq tells this wait from any other in the process, two on one lock
	// too: Over gives back the Seq Say was given.
	Seq uint64
}

// waitSeq numbers the waits said.
var waitSeq atomic.Uint64

func (w Waiting) String() string {
	return "waiting for another process " + safetext.Text(w.Doing) + "; " + w.holder("it") + " holds its lock, " + safetext.Text(w.Lock) + w.next()
}

// holder is who holds the lock: the system's name for it, else unnamed.
func (w Waiting) holder(unnamed string) string {
	if w.Holder != "" {
		return w.Holder
	}
	return unnamed
}

// next is what svcwallet does while it waits, the words' last.
func (w Waiting) next() string {
	if w.Unbounded {
		return "; svcwallet waits for it to finish…"
	}
	return fmt.Sprintf("; svcwallet gives up after %s…", GiveUpAfter)
}

// Brief is String for a narrow screen (the console's standing word, three
// rows at 60 columns): the holder first, files by their names and the lock
// unnamed where it is in their folder (the command line's words say it);
// what svcwallet does kept.
func (w Waiting) Brief() string {
	doing, lock := safetext.Text(w.Doing), safetext.Text(w.Lock)
	who := w.holder("another process")
	s := who + " is " + doing + ", holding " + lock
	// A lock that is the named file's folder, or beside the file: the
	// folder goes and the lock is unnamed, the file's name says which.
	for _, dir := range []string{lock + string(filepath.Separator), filepath.Dir(lock) + string(filepath.Separator)} {
		if strings.Contains(doing, dir) {
			s = who + " is " + strings.ReplaceAll(doing, dir, "")
			break
		}
	}
	return s + w.next()
}

// LockHeldError is a bounded wait given up: the lock was held longer than
// any honest holder needs.
type LockHeldError struct {
	Waiting
	Waited time.Duration
}

func (e *LockHeldError) Error() string {
	return fmt.Sprintf("svcwallet waited %s for %s, which holds the lock %s while %s, longer than that ever takes; nothing was changed: end that process (or wait for it to end), then try again", e.Waited.Round(time.Second), e.holder("another process"), safetext.Shown(e.Lock), safetext.Text(e.Doing))
}

// LockWaits is how this process times and says its waits on a lock; a
// face sets it once (SetLockWaits) to say a wait where its person reads.
// Over is told when a wait Say was told of ends (the lock taken, the wait
// given up or failed), so a face that keeps its word up while the wait
// lasts, as the console does, takes it down.
type LockWaits struct {
	After func(time.Duration) <-chan time.Time // time.After where nil
	Say   func(Waiting)                        // nil says nothing
	Over  func(Waiting)                        // nil: the face keeps nothing up
}

var lockWaits struct {
	sync.Mutex
	LockWaits
}

// SetLockWaits makes w how every later wait on a lock is timed and said,
// until restore.
func SetLockWaits(w LockWaits) (restore func()) {
	lockWaits.Lock()
	defer lockWaits.Unlock()
	was := lockWaits.LockWaits
	lockWaits.LockWaits = w
	return func() {
		lockWaits.Lock()
		defer lockWaits.Unlock()
		lockWaits.LockWaits = was
	}
}

// PollEvery is how often a held lock is tried again. The wait is a try
// without blocking at each tick, never a blocking call on a goroutine of
// its own: flock blocks its thread until the lock is free, so every wait
// given up left a thread waiting, and taking the lock, for as long as the
// holder held it.
const PollEvery = 50 * time.Millisecond

// waitLock takes f's lock (at path), waiting while another holds it:
// the wait is said once past SayWaitAfter, and given up past GiveUpAfter
// unless w is Unbounded. The time waited is the ticks' sum.
func waitLock(f *os.File, path string, w Wait) error {
	lockWaits.Lock()
	lw := lockWaits.LockWaits
	lockWaits.Unlock()
	after := lw.After
	if after == nil {
		after = time.After
	}
	var said *Waiting
	defer func() {
		if said != nil && lw.Over != nil {
			lw.Over(*said)
		}
	}()
	for waited := time.Duration(0); ; waited += PollEvery {
		ok, err := tryLock(f)
		if err != nil || ok {
			return err
		}
		if said == nil && waited >= SayWaitAfter {
			wt := waiting(f, path, w)
			wt.Seq = waitSeq.Add(1)
			said = &wt
			if lw.Say != nil {
				lw.Say(wt)
			}
		}
		if !w.Unbounded && waited >= GiveUpAfter {
			return &LockHeldError{Waiting: waiting(f, path, w), Waited: waited}
		}
		<-after(PollEvery)
	}
}

func waiting(f *os.File, path string, w Wait) Waiting {
	return marked(f, Waiting{Wait: w, Lock: path, Holder: lockHolder(f)})
}
