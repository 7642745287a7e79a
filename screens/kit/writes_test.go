package kit

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestFinishMakesAWriteItsCmdNeverRan: a program that ended before
// running a journal write's Cmd leaves it to Finish, which makes it once;
// the Cmd run late does not write again.
func TestFinishMakesAWriteItsCmdNeverRan(t *testing.T) {
	var ws Writes
	var made atomic.Int32
	o := ws.owe(func() error { made.Add(1); return nil })
	if err := ws.Finish(time.Minute); err != nil {
		t.Fatal(err)
	}
	if made.Load() != 1 {
		t.Fatalf("made %d times by Finish, want once", made.Load())
	}
	if err := o.make(); err != nil || made.Load() != 1 {
		t.Errorf("the Cmd run after Finish: err %v, made %d times, want once", err, made.Load())
	}
	if err := ws.Finish(time.Minute); err != nil || made.Load() != 1 {
		t.Errorf("a second Finish: err %v, made %d times, want once", err, made.Load())
	}
}

// TestFinishSaysAWriteItGaveUpOn: a write held past the bound (another
// process holding the journal's lock) is said, not waited for for ever;
// one that failed is said with its error.
func TestFinishSaysAWriteItGaveUpOn(t *testing.T) {
	var ws Writes
	broken := errors.New("disk full")
	ws.owe(func() error { return broken })
	if err := ws.Finish(time.Minute); !errors.Is(err, broken) || !strings.Contains(err.Error(), "check the disk") {
		t.Errorf("Finish: %v, want the failed write's error and what to do", err)
	}
	held := make(chan struct{})
	defer close(held)
	ws.owe(func() error { <-held; return nil })
	err := ws.Finish(time.Millisecond)
	var left *UnwrittenError
	if !errors.As(err, &left) || left.Lines != 1 {
		t.Errorf("Finish past its bound: %v, want 1 line left unwritten", err)
	}
}
