package plain

import (
	"errors"
	"io"
	"strings"
)

// pastedEnterAnswer is said of an answer typed back whose Enter came with
// a paste.
const pastedEnterAnswer = "Not taken: its Enter came with the paste. Paste or type it, then press Enter yourself."

// TypedBack asks question, whose answer trusts what it types back (the
// new bridge funding address a withdrawal will pay), until check accepts
// it, held to the passphrase's rule on a terminal: what was typed ahead is
// discarded and said; read a key at a time, it may be pasted, but one
// whose Enter came with the paste is not taken; and an answer within
// intent.ReviewDwell of the question is refused. Each refusal is said and
// the question asked again. A line typed or pasted ahead with its Enter
// answered it, as a plain question. The gate's one loop asks it (Gate.ask).
// On a terminal it is read with echo off, as a passphrase: a private key
// pasted there by mistake would stay on a plain terminal, which cannot
// take a line back; an address typed wrong is said by check's refusal.
func (p *Prompter) TypedBack(question string, check func(string) error) (string, error) {
	for {
		g, read := p.signing(), p.read
		if g.OnTerminal() && g.Keys == nil && p.secret != nil {
			read = p.unechoed
		}
		text, err := g.ask(p.ctx, p.out, func() string { return question + " " }, read, true)
		text = strings.TrimSpace(text)
		switch {
		case err != nil:
			return "", err
		case text == "":
			continue
		}
		if err := check(text); err != nil {
			p.Say("Not accepted: %v.", trimStop(err))
			continue
		}
		return text, nil
	}
}

// unechoed reads a line with echo off, its question written (Gate.ask): a
// terminal whose keys are not read one at a time (Windows' console).
func (p *Prompter) unechoed() (string, error) {
	answer, err := p.secret(p.ctx, func() {})
	switch {
	case p.ctx.Err() != nil:
		return "", ErrInterrupted
	case errors.Is(err, io.EOF):
		err = ErrEnd
	}
	p.Blank() // the enter typed was not echoed
	return answer, err
}
