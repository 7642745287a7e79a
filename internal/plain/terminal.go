package plain

import (
	"errors"
)

// ErrNoTerminal ends plain mode at a question that signs when the answers
// come from no terminal (a pipe, a file) or the questions are written on
// none: as `svcwallet withdraw` without --yes, nothing is asked or signed,
// and the command to run instead was said.
var ErrNoTerminal = errors.New("no terminal to confirm on")

// onTerminal lets a question that signs the what reviewed be asked: only on
// a terminal (Gate.OnTerminal). Otherwise it says so, and the command line
// (instead, its words) that signs it without asking, and ends plain mode.
func (s *session) onTerminal(what string, instead []string) error {
	if s.Gate.OnTerminal() {
		return nil
	}
	s.p.Say("Not signed: the answers do not come from a terminal, or the questions are not written on one, so the %s cannot be confirmed here; nothing was signed or sent.", what)
	s.p.Say("To sign it without a question, run: %s", s.command(append(instead, "--yes")...))
	return ErrNoTerminal
}
