package kit

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// What the console owes at its end (Deps.Ended), however it ends (q, the
// terminal closed, kill): the writes handed to commands (Writes: journal
// lines, the watch board's save as it left) and what a watch board learned
// since its last save (Flushes). Bubble Tea neither waits for the commands
// still out when its program ends nor runs those not started, so a state
// learned just before q (COMPLETED) was lost with the process.

// Writes are the writes the console's commands were handed and have not
// made yet. Nil owes nothing: each write is made by its Cmd alone.
type Writes struct {
	mu   sync.Mutex
	owed map[*Owed]bool
}

// Owed is one write handed to a Cmd, owed until made: by its Cmd, by the
// console's end, or by the next watch board of its file (the board's
// flush), whichever comes first, the others waiting for it. One that fails
// stays owed and is tried again by the next of them; none makes it twice.
type Owed struct {
	mu    sync.Mutex
	done  bool
	board bool // the watch board's file, else the journal: how the end words it
	write func() error
	by    *Writes
}

// owe keeps write owed until it is made.
func (ws *Writes) owe(board bool, write func() error) *Owed {
	o := &Owed{board: board, write: write, by: ws}
	if ws == nil {
		return o
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.owed == nil {
		ws.owed = map[*Owed]bool{}
	}
	ws.owed[o] = true
	return o
}

// OweBoard keeps write, a watch board's save of its file as it leaves,
// owed until it is made.
func (ws *Writes) OweBoard(write func() error) *Owed { return ws.owe(true, write) }

// Make writes, unless made already, or waits for the write under way and
// tries again if that one failed; it gives this try's error.
func (o *Owed) Make() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.done {
		return nil
	}
	if err := o.write(); err != nil {
		return err
	}
	o.done = true
	if o.by != nil {
		o.by.mu.Lock()
		delete(o.by.owed, o)
		o.by.mu.Unlock()
	}
	return nil
}

// still are the writes owed now, in no order that matters.
func (ws *Writes) still() []*Owed {
	if ws == nil {
		return nil
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	owed := make([]*Owed, 0, len(ws.owed))
	for o := range ws.owed {
		owed = append(owed, o)
	}
	return owed
}

// Ended is what the console does once its program has ended, the one end
// the console and its tests share: the signing commands still running are
// waited for (Running.Close; their context ended with the program), and
// the review screens' sends still out (Sends), the writes owed are made
// (Writes), and what each board learned since its last save is written
// (Flushes), side by side and within bound in all, where one file's lock
// alone may be waited for 30 s. The errors say the writes that failed, and
// those unmade at the bound (UnwrittenError, UnsavedError), and what was
// still signing or sending then (left: LeftError, one each); the caller
// words each.
func (d *Deps) Ended(bound time.Duration) (journal, board, left error) {
	stop := make(chan struct{})
	timer := time.AfterFunc(bound, func() { close(stop) })
	defer timer.Stop()
	signing := make(chan bool, 1)
	go func() { signing <- d.Running == nil || d.Running.Close(bound) }()
	sending := make(chan error, 1)
	go func() { sending <- d.Sends.wait(stop) }()
	type made struct {
		board bool
		err   error
	}
	owed := d.Writes.still()
	results := make(chan made, len(owed)+1)
	lines, boards := 0, 1 // the board's flushes are one
	for _, o := range owed {
		if o.board {
			boards++
		} else {
			lines++
		}
		go func() { results <- made{o.board, o.Make()} }()
	}
	go func() { results <- made{true, d.Flushes.Run()} }()
	var journalErrs, boardErrs []error
	for range len(owed) + 1 {
		select {
		case m := <-results:
			switch {
			case m.board:
				boards--
				boardErrs = append(boardErrs, m.err)
			default:
				lines--
				if m.err != nil {
					// Said as the toast says it: what it costs, what to do.
					journalErrs = append(journalErrs, fmt.Errorf("%w: the history may miss this state; check the disk", m.err))
				}
			}
		case <-stop:
			if lines > 0 {
				journalErrs = append(journalErrs, &UnwrittenError{Lines: lines, After: bound})
			}
			if boards > 0 {
				boardErrs = append(boardErrs, &UnsavedError{After: bound})
			}
			return errors.Join(journalErrs...), boardSaid(boardErrs), stillOut(<-sending, <-signing, bound)
		}
	}
	return errors.Join(journalErrs...), boardSaid(boardErrs), stillOut(<-sending, <-signing, bound)
}

// stillOut is what was still signing or sending at the end: the sends
// (Sends.wait), else a signing command that did not end (a login's).
func stillOut(sends error, signingEnded bool, bound time.Duration) error {
	if sends != nil || signingEnded {
		return sends
	}
	return &LeftError{Text: fmt.Sprintf("a signing command was still making a signature when the console ended and did not stop within %s: nothing was sent with it; end it if it still runs", bound)}
}

// boardSaid is the board's errors at the end, each write's failure said
// once (a board's save as it left is tried by its flush too, and fails
// alike) with what it costs and what to do; past the bound, UnsavedError.
func boardSaid(errs []error) error {
	var failed []error
	var unsaved error
	seen := map[string]bool{}
	var add func(err error)
	add = func(err error) {
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range joined.Unwrap() {
				add(e)
			}
			return
		}
		if u, ok := err.(*UnsavedError); ok {
			unsaved = u
			return
		}
		if err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			failed = append(failed, err)
		}
	}
	for _, err := range errs {
		add(err)
	}
	if len(failed) == 0 {
		return unsaved
	}
	return errors.Join(fmt.Errorf("%w: check the state directory, then open the board: it may lack the ids added or removed and the states learned just before the end", errors.Join(failed...)), unsaved)
}

// UnwrittenError: journal lines still not written when the console gave
// up waiting for them at its end.
type UnwrittenError struct {
	Lines int
	After time.Duration
}

func (e *UnwrittenError) Error() string {
	if e.Lines == 1 {
		return fmt.Sprintf("a state learned just before the end was not written within %s (another process may hold the journal's lock); it is journaled when its withdrawal is next followed (Home checks unfinished ones)", e.After)
	}
	return fmt.Sprintf("%d states learned just before the end were not written within %s (another process may hold the journal's lock); they are journaled when their withdrawals are next followed (Home checks unfinished ones)", e.Lines, e.After)
}

// UnsavedError: the watch board's last changes still not written when the
// console gave up waiting for them at its end.
type UnsavedError struct{ After time.Duration }

func (e *UnsavedError) Error() string {
	return fmt.Sprintf("they were not written within %s (another process may hold the board file's lock): the board may lack the ids added or removed and the states learned just before the end; open it to check them", e.After)
}

// Flushes are what the watch boards learned since their last save, owed
// at the console's end. One is kept a key: a board opened again takes
// over what the last one of its file left (Swap).
type Flushes struct {
	mu sync.Mutex
	by map[string]func() error
}

// Swap keeps flush under key, and returns the one it replaces, nil for
// none, for the caller to run first. Nil flushes does nothing.
func (f *Flushes) Swap(key string, flush func() error) (old func() error) {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.by == nil {
		f.by = map[string]func() error{}
	}
	old = f.by[key]
	f.by[key] = flush
	return old
}

// Run does every flush owed, once; the console's end calls it (Ended).
func (f *Flushes) Run() error {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	by := f.by
	f.by = nil
	f.mu.Unlock()
	var errs []error
	for _, flush := range by {
		errs = append(errs, flush())
	}
	return errors.Join(errs...)
}
