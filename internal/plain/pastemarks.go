package plain

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// A paste split across reads (a slow ssh link, a long paste) looks typed
// to a rule that judges each read alone: its Enter may come by itself,
// after the check that looked for more. So while an answer or a secret is
// read on a terminal that draws more than text, the terminal is asked to
// mark pastes (bracketed paste): from its start mark to its end mark every
// key came with the paste, however many reads it took. A terminal that
// sends no marks (TERM=dumb, Windows' console) keeps the rules of timing
// and of what the terminal holds when the line ends.

// ErrPastedLines is a secret's line that came in a paste of more lines:
// they were read to the paste's end and dropped, so none answers what is
// asked next.
var ErrPastedLines = errors.New("more lines came with it in the paste")

// pasteMarks follows a bracketed paste across reads: open from a start
// mark until its end mark.
type pasteMarks struct{ open bool }

// take drops the marks from b, and reports whether any of b's bytes came
// with a paste: read while one was open, or between marks in b.
func (m *pasteMarks) take(b []byte) (keys []byte, pasted bool) {
	pasted = m.open
	for len(b) > 0 {
		start := bytes.Index(b, []byte(ansi.BracketedPasteStart))
		end := bytes.Index(b, []byte(ansi.BracketedPasteEnd))
		switch {
		case start < 0 && end < 0:
			keys = append(keys, b...)
			b = nil
		case end < 0 || start >= 0 && start < end:
			keys = append(keys, b[:start]...)
			b = b[start+len(ansi.BracketedPasteStart):]
			m.open, pasted = true, true
		default:
			keys = append(keys, b[:end]...)
			b = b[end+len(ansi.BracketedPasteEnd):]
			m.open, pasted = false, true
		}
	}
	return keys, pasted
}

// A paste reaches a terminal in pieces (its line discipline holds 4 KiB, a
// column of 3,000 ids is 22 of them; a slow link sends them far apart):
// pasteTick is how often what came is dropped, and a paste that pauses for
// pasteQuiet has ended. Waited only after a line came with more of its
// paste, or where a paste's end mark is owed, never after a line typed.
const (
	pasteTick  = 10 * time.Millisecond
	pasteQuiet = 2 * time.Second
)

// PastedMore follows the paste a line came in to its end, dropping what
// more it brings, and reports whether more than blanks came after the
// line: a secret is one line, and an id column's rest would answer the
// next questions (Home's, a shell's prompt). open: the line held the
// paste's start mark and not its end, so the rest is read up to the end
// mark; else what the terminal holds after the line, if any, and what
// more comes until the paste pauses for pasteQuiet (or ctx ends). Never
// on a pipe, which gives each question a line of its own.
func (g Gate) PastedMore(ctx context.Context, open bool) bool {
	if !g.OnTerminal() {
		return false
	}
	rest := pasteRest{open: open && g.take != nil}
	if !rest.drop(g) && !rest.open {
		return false // nothing came with the line
	}
	after := g.After
	if after == nil {
		after = time.After
	}
	for quiet := g.Now(); g.Now().Sub(quiet) < pasteQuiet && (rest.open || !open); {
		select {
		case <-after(pasteTick):
		case <-ctx.Done():
			return true
		}
		if rest.drop(g) {
			quiet = g.Now()
		}
	}
	return rest.more
}

// pasteRest is what came of a paste after its first line: open until its
// end mark is read; more once anything but blanks came before that.
type pasteRest struct {
	open, more bool
	tail       []byte // an open paste's last bytes read, for an end mark read in two
}

// drop drops what g's terminal holds, and reports whether it held any.
func (r *pasteRest) drop(g Gate) bool {
	if g.take == nil { // a console whose input is records: whether it held keys
		held, _ := g.Flush()
		r.more = r.more || held
		return held
	}
	b, _ := g.take()
	switch {
	case len(b) == 0:
	case r.open:
		seen := append(r.tail, b...)
		before, _, ended := bytes.Cut(seen, []byte(ansi.BracketedPasteEnd))
		r.more = r.more || len(bytes.TrimSpace(before)) > 0
		r.open = !ended
		r.tail = seen[max(0, len(seen)-len(ansi.BracketedPasteEnd)+1):]
	default:
		r.more = true
	}
	return len(b) > 0
}
