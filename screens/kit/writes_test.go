package kit

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestEndedMakesAWriteItsCmdNeverRan: a program that ended before
// running a journal write's Cmd leaves it to the console's end, which
// makes it once; the Cmd run late does not write again.
func TestEndedMakesAWriteItsCmdNeverRan(t *testing.T) {
	var ws Writes
	d := &Deps{Writes: &ws}
	var made atomic.Int32
	o := ws.owe(false, func() error { made.Add(1); return nil })
	if journal, board, _ := d.Ended(time.Minute); journal != nil || board != nil {
		t.Fatal(journal, board)
	}
	if made.Load() != 1 {
		t.Fatalf("made %d times by the end, want once", made.Load())
	}
	if err := o.Make(); err != nil || made.Load() != 1 {
		t.Errorf("the Cmd run after the end: err %v, made %d times, want once", err, made.Load())
	}
	if journal, _, _ := d.Ended(time.Minute); journal != nil || made.Load() != 1 {
		t.Errorf("a second end: err %v, made %d times, want once", journal, made.Load())
	}
}

// TestAFailedWriteIsTriedAgainAtTheEnd: a write whose Cmd failed (the
// board's file or the journal locked, the disk full) stays owed and is
// made at the end, once; one failing there too is said with what to do.
func TestAFailedWriteIsTriedAgainAtTheEnd(t *testing.T) {
	var ws Writes
	d := &Deps{Writes: &ws}
	broken := errors.New("disk full")
	fails := true
	var made atomic.Int32
	o := ws.OweBoard(func() error {
		if fails {
			return broken
		}
		made.Add(1)
		return nil
	})
	if err := o.Make(); !errors.Is(err, broken) {
		t.Fatalf("the Cmd's write: %v", err)
	}
	fails = false
	if journal, board, _ := d.Ended(time.Minute); journal != nil || board != nil || made.Load() != 1 {
		t.Fatalf("the end: %v, %v, made %d times; want the failed write made once", journal, board, made.Load())
	}
	if err := o.Make(); err != nil || made.Load() != 1 {
		t.Errorf("made again after the end: %v, %d times", err, made.Load())
	}

	ws.owe(false, func() error { return broken })
	if journal, board, _ := d.Ended(time.Minute); !errors.Is(journal, broken) || !strings.Contains(journal.Error(), "check the disk") || board != nil {
		t.Errorf("the end: %v, %v; want the failed journal line's error and what to do", journal, board)
	}
}

// TestEndedHasOneBound: the console's end waits for the journal and the
// watch board side by side, within one bound in all (each could wait 30 s
// for another process's lock, and the waits added up); what is left
// unwritten is said, each file's in its own error.
func TestEndedHasOneBound(t *testing.T) {
	held := make(chan struct{})
	defer close(held)
	hold := func() error { <-held; return nil }
	const bound = 400 * time.Millisecond
	var ws Writes
	ws.owe(false, hold)
	ws.owe(false, hold)
	var f Flushes
	f.Swap("board", hold)
	start := time.Now()
	journal, board := endedWithin(t, &Deps{Writes: &ws, Flushes: &f}, bound)
	if took := time.Since(start); took >= 2*bound {
		t.Errorf("the end took %s, more than its one bound of %s", took, bound)
	}
	var lines *UnwrittenError
	if !errors.As(journal, &lines) || lines.Lines != 2 {
		t.Errorf("the journal's end: %v, want 2 lines left unwritten", journal)
	}
	var unsaved *UnsavedError
	if !errors.As(board, &unsaved) || !strings.Contains(board.Error(), "open it to check") || errors.As(board, &lines) {
		t.Errorf("the board's flush at the end: %v, want its changes said unsaved and what to do", board)
	}

	// The board's save as it left, held, is the board's too.
	var left Writes
	left.OweBoard(hold)
	if journal, board := endedWithin(t, &Deps{Writes: &left}, bound); journal != nil || !errors.As(board, &unsaved) {
		t.Errorf("the board's save as it left, held at the end: %v, %v; want it said unsaved", journal, board)
	}
}

// endedWithin is d.Ended(bound), failing the test if it waits past its
// bound as if without one.
func endedWithin(t *testing.T, d *Deps, bound time.Duration) (journal, board error) {
	t.Helper()
	type ended struct{ journal, board error }
	done := make(chan ended, 1)
	go func() {
		journal, board, _ := d.Ended(bound)
		done <- ended{journal, board}
	}()
	select {
	case e := <-done:
		return e.journal, e.board
	case <-time.After(time.Minute):
		t.Fatal("the end waited past its bound for writes held")
		return nil, nil
	}
}
