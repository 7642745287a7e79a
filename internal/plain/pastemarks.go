package plain

import (
	"bytes"
	"errors"

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
